import { applySecretRules, secretRules } from './secret-rules.js';

// The markers this module (and the tracer, with a fingerprint) writes: never redacted again, and a
// marker that names its rule (`…:github-token]`) is not read as a `token:` assignment.
const MARKER = /\[REDACTED:[^\]\s]{0,80}\]/;

/**
 * Replace every value the shared {@link secretRules} recognise (provider keys, cloud and VCS
 * tokens, JWTs, PEM blocks, `Authorization:` headers, URL credentials, `password=` assignments,
 * random-looking tokens) with `[REDACTED:<rule>]`, keeping the words around it. For text that is
 * kept at rest, such as the session memory; the tracer uses the same rules with fingerprints.
 *
 * @example
 * redactSecrets('password=hunter22 and Bearer abcdefghijklmnop');
 * // 'password=[REDACTED:keyword-assignment] and Bearer [REDACTED:bearer-token]'
 */
export function redactSecrets(text: string): string {
  return applySecretRules(text, secretRules, (rule) => `[REDACTED:${rule}]`, MARKER);
}
