import { applySecretRules, type SecretRule, secretRules } from './secret-rules.js';

/**
 * What replaces anything that looks like a secret in a scrubbed message.
 *
 * @example
 * scrubSecrets('key sk-ant-api03-abcdefgh') === `key ${REDACTED}`; // true
 */
export const REDACTED = '[redacted]';

/** Fragments shorter than this are too common to be evidence of a leaked key. */
const MIN_FRAGMENT = 4;

/**
 * Rules for upstream error text on top of {@link secretRules}. Provider APIs echo a rejected key
 * masked (`sk-proj-ab***wxyz`) or cut short, which the value rules (made for whole keys) miss;
 * in a one-line error message such shapes are never worth keeping.
 */
const messageRules: readonly SecretRule[] = [
  { id: 'key-prefix', pattern: /\b(?:sk|gsk)[-_][A-Za-z0-9_\-*]{3,}/dg },
  { id: 'short-bearer', pattern: /\b[Bb]earer\s+(?<secret>[^\s"',;]+)/dg },
];

const PROTECT = /\[redacted\]/;

/**
 * Options of {@link scrubSecrets}.
 *
 * @example
 * const options: ScrubOptions = { keep: ['TEAM_APPROVERS'] };
 */
export interface ScrubOptions {
  /**
   * Words of the caller's own vocabulary, such as the setting names its messages mention: never
   * taken for a fragment of a known secret, even when a secret happens to contain them. A known
   * secret itself, and every value the rules recognise, is still removed around and inside them.
   */
  keep?: Iterable<string>;
}

/**
 * Remove anything that looks like a credential from text a server sent back (an error message, a
 * proxy's page) before it reaches a person or a log: every known secret, everything the shared
 * {@link secretRules} recognise (provider keys, tokens, JWTs, PEM blocks, `Authorization:` and
 * `api_key=` pairs, URL credentials …), masked or truncated keys, and any word that is a fragment
 * (4 characters or more) of a known secret, so `invalid key …c21e` cannot leak a key's tail —
 * except the words `options.keep` names.
 *
 * @example
 * scrubSecrets('Incorrect API key provided: sk-proj-ab***wxyz', ['sk-proj-abcdwxyz']);
 * // 'Incorrect API key provided: [redacted]'
 * scrubSecrets('ask TEAM_APPROVERS', ['TEAM-9f8e7d'], { keep: ['TEAM_APPROVERS'] });
 * // 'ask TEAM_APPROVERS'
 */
export function scrubSecrets(
  text: string,
  knownSecrets: readonly string[] = [],
  options: ScrubOptions = {},
): string {
  // A secret shorter than a fragment is a placeholder (local servers take any key), not a secret.
  const known = knownSecrets.filter((secret) => secret.length >= MIN_FRAGMENT);
  let out = text;
  for (const secret of known) out = out.split(secret).join(REDACTED);
  out = applySecretRules(out, secretRules, () => REDACTED, PROTECT);
  out = applySecretRules(out, messageRules, () => REDACTED, PROTECT);
  // A run with `***` in it is a masked credential; done per word, which keeps the scan linear.
  out = out.replace(/\S+/g, (word) => (word.includes('***') ? REDACTED : word));
  if (known.length === 0) return out;
  const keep = new Set(options.keep);
  // Masks such as `sk-…abcd` split on `…` and `.`, so each visible run is checked on its own.
  const isFragment = (part: string): boolean =>
    part.length >= MIN_FRAGMENT && known.some((secret) => secret.includes(part));
  return out.replace(/[A-Za-z0-9_-]+/g, (word) =>
    word !== 'redacted' &&
    !keep.has(word) &&
    (isFragment(word) || word.split(/[-_]/).some(isFragment))
      ? REDACTED
      : word,
  );
}
