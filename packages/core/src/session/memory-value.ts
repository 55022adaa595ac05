import { redactSecrets } from '../utils/redact-secrets.js';

/** Most characters of one remembered value (a prompt or an answer) that are kept. */
export const MEMORY_VALUE_MAX_CHARS = 8000;

/** How many lines the memory of a session keeps: every store drops the older ones. */
export const MEMORY_MAX_LINES = 200;

// Redaction looks this far past the cut, so a credential that straddles it is still recognised
// whole (and then cut or kept as a marker) rather than leaving a recognisable-only-in-full prefix.
const REDACTION_LOOKAHEAD = 4096;
const MARKER_START = '[REDACTED:';

/**
 * A value as the memory file may hold it: every credential the shared secret rules recognise
 * replaced by `[REDACTED:<rule>]`, then cut to {@link MEMORY_VALUE_MAX_CHARS} with a note of how
 * much was left out. Only the kept part (and a little beyond) is scanned, so a huge value costs
 * no more than a long one.
 *
 * @example
 * memoryValue('x'.repeat(10_000)); // 'xxx…x … [cut: 2,000 more chars]'
 */
export function memoryValue(value: string, maxChars = MEMORY_VALUE_MAX_CHARS): string {
  const window = value.length > maxChars + REDACTION_LOOKAHEAD;
  const scanned = redactSecrets(window ? value.slice(0, maxChars + REDACTION_LOOKAHEAD) : value);
  if (!window && scanned.length <= maxChars) return scanned;
  let end = maxChars;
  // Never keep half a surrogate pair or half a marker.
  const code = scanned.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  const marker = scanned.lastIndexOf(MARKER_START, end - 1);
  if (marker !== -1 && scanned.indexOf(']', marker) >= end) end = marker;
  const more =
    scanned.length - end + (value.length - Math.min(value.length, maxChars + REDACTION_LOOKAHEAD));
  return `${scanned.slice(0, end)} … [cut: ${more.toLocaleString('en-US')} more chars]`;
}
