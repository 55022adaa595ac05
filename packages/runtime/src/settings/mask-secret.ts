/** Below this length a partial mask would reveal too much of the secret, so it is hidden whole. */
const MIN_PARTIAL_MASK_LENGTH = 20;

/**
 * Masks a secret for display: the first 3 and last 4 characters of a long value, `****` for a
 * short one, `(unset)` when there is none.
 *
 * @example
 * maskSecret('sk-proj-0123456789abcdefabcd'); // → 'sk-…abcd'
 * maskSecret('short');                        // → '****'
 * maskSecret(undefined);                      // → '(unset)'
 */
export function maskSecret(value: string | undefined): string {
  if (value === undefined || value === '') return '(unset)';
  if (value.length < MIN_PARTIAL_MASK_LENGTH) return '****';
  return `${value.slice(0, 3)}…${value.slice(-4)}`;
}

/**
 * Replaces the `user:password@` part of any URL in `text` with `***@`, so a base URL that carries
 * credentials can be shown.
 *
 * @example
 * redactUrlCredentials('https://me:hunter2@proxy.local/v1'); // → 'https://***@proxy.local/v1'
 */
export function redactUrlCredentials(text: string): string {
  return text.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#\s@]+@/g, '$1***@');
}
