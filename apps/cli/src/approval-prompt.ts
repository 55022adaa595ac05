import { approvalQuestion, approvalsText } from './approvals-strings.js';

/** Where an "always" answer is kept: the run's session, or the user's rules for this project. */
export type AlwaysScope = 'session' | 'project';

/**
 * A person's answer to the approval question: approve (once, or always for the session or the
 * project) or reject with an optional reason.
 */
export type PromptDecision =
  | { decision: 'approve'; always?: AlwaysScope }
  | { decision: 'reject'; reason?: string };

/** Which "always" answers the question offers (those whose rules would stop the next ask). */
export interface AlwaysOffers {
  readonly session: boolean;
  readonly project: boolean;
}

const NO_OFFERS: AlwaysOffers = { session: false, project: false };

/**
 * Read an answer: `y`/`yes` approves; `n`/`no` rejects; `n <reason>` rejects and gives the model
 * the reason; when offered, `a`/`always` approves and keeps the answer for the session and
 * `p`/`project` approves and keeps it in the user's rules for this project. Anything else (an
 * empty line included: there is no default) is not an answer.
 *
 * @example
 * parseDecision('n not on main'); // { decision: 'reject', reason: 'not on main' }
 * parseDecision('a', { session: true, project: true }); // { decision: 'approve', always: 'session' }
 * parseDecision(''); // undefined
 */
export function parseDecision(
  answer: string,
  offers: AlwaysOffers = NO_OFFERS,
): PromptDecision | undefined {
  const text = answer.trim();
  if (/^y(es)?$/i.test(text)) return { decision: 'approve' };
  if (offers.session && /^a(lways)?$/i.test(text))
    return { decision: 'approve', always: 'session' };
  if (offers.project && /^p(roject)?$/i.test(text))
    return { decision: 'approve', always: 'project' };
  const reject = /^no?(?:\s+(.+))?$/is.exec(text);
  if (!reject) return undefined;
  const reason = reject[1]?.trim();
  return reason ? { decision: 'reject', reason } : { decision: 'reject' };
}

/**
 * Ask until there is a decision: an unrecognised answer is explained and asked once more; a
 * second one, Ctrl-C or the end of input gives undefined, and the request stays pending. The
 * "always" answers are accepted only when offered (the caller shows what each would keep first).
 *
 * @example
 * const decision = await askDecision(out.ask!, out.stderr, { session: true, project: false });
 */
export async function askDecision(
  ask: (question: string) => Promise<string | undefined>,
  stderr: (text: string) => void,
  offers: AlwaysOffers = NO_OFFERS,
): Promise<PromptDecision | undefined> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const answer = await ask(approvalQuestion);
    if (answer === undefined) return undefined;
    const decision = parseDecision(answer, offers);
    if (decision) return decision;
    if (attempt === 0) stderr(`${approvalsText.unrecognised(offers)}\n`);
  }
  return undefined;
}
