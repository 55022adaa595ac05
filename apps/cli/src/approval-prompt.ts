import { approvalQuestion, approvalsText } from './approvals-strings.js';

/** A person's answer to the approval question. */
export type PromptDecision = { decision: 'approve' } | { decision: 'reject'; reason?: string };

/**
 * Read an answer: `y`/`yes` approves; `n`/`no` rejects; `n <reason>` rejects and gives the model
 * the reason. Anything else (an empty line included: there is no default) is not an answer.
 *
 * @example
 * parseDecision('n not on main'); // { decision: 'reject', reason: 'not on main' }
 * parseDecision(''); // undefined
 */
export function parseDecision(answer: string): PromptDecision | undefined {
  const text = answer.trim();
  if (/^y(es)?$/i.test(text)) return { decision: 'approve' };
  const reject = /^no?(?:\s+(.+))?$/is.exec(text);
  if (!reject) return undefined;
  const reason = reject[1]?.trim();
  return reason ? { decision: 'reject', reason } : { decision: 'reject' };
}

/**
 * Ask until there is a decision: an unrecognised answer is explained and asked once more; a
 * second one, Ctrl-C or the end of input gives undefined, and the request stays pending.
 *
 * @example
 * const decision = await askDecision(out.ask!, out.stderr);
 */
export async function askDecision(
  ask: (question: string) => Promise<string | undefined>,
  stderr: (text: string) => void,
): Promise<PromptDecision | undefined> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const answer = await ask(approvalQuestion);
    if (answer === undefined) return undefined;
    const decision = parseDecision(answer);
    if (decision) return decision;
    if (attempt === 0) stderr(`${approvalsText.unrecognised}\n`);
  }
  return undefined;
}
