/**
 * How long to wait before retrying a throttled or failed HTTP request. Servers say how long in
 * `retry-after-ms` or `retry-after`; the vendor SDKs honour any value, even an hour, which would
 * freeze an interactive agent. The policy here: a hint of up to {@link MAX_RETRY_DELAY_MS} is
 * honoured as sent, a hint of up to {@link MAX_HONOURED_RETRY_AFTER_MS} is cut to
 * {@link MAX_RETRY_DELAY_MS}, and a larger one is a quota reset rather than a blip, so it is
 * ignored in favour of a short exponential backoff with jitter.
 *
 * @example
 * await sleep(retryDelayMs(response.headers, retryIndex), signal);
 *
 * @module
 */

/**
 * Longest wait between two attempts, whatever the server asks for.
 *
 * @example
 * retryDelayMs(new Headers({ 'retry-after': '30' }), 0) === MAX_RETRY_DELAY_MS; // true
 */
export const MAX_RETRY_DELAY_MS = 8_000;

/**
 * A server hint above this is ignored: waiting even {@link MAX_RETRY_DELAY_MS} for it only delays
 * the failure, so the backoff applies instead.
 *
 * @example
 * honouredRetryAfterMs(MAX_HONOURED_RETRY_AFTER_MS + 1); // undefined
 */
export const MAX_HONOURED_RETRY_AFTER_MS = 60_000;

const INITIAL_BACKOFF_MS = 500;

/**
 * The wait a response asks for, in ms: `retry-after-ms` first, then `retry-after` as seconds or as
 * an HTTP date (read against `nowMs`); `undefined` when neither is present or usable. The value is
 * returned as sent (it may be zero, negative or huge); {@link honouredRetryAfterMs} judges it.
 *
 * @example
 * parseRetryAfterMs(new Headers({ 'retry-after': '2' })); // 2000
 * parseRetryAfterMs(new Headers({ 'retry-after-ms': '150', 'retry-after': '9' })); // 150
 */
export function parseRetryAfterMs(
  headers: Headers | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms) {
    const value = Number.parseFloat(ms);
    if (!Number.isNaN(value)) return value;
  }
  const after = headers?.get('retry-after');
  if (!after) return undefined;
  const seconds = Number.parseFloat(after);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : date - nowMs;
}

/**
 * The wait to use for a server hint: the hint itself up to {@link MAX_RETRY_DELAY_MS}, that cap
 * for hints up to {@link MAX_HONOURED_RETRY_AFTER_MS}, and `undefined` (use the backoff) for no
 * hint, a hint of zero or less, or a larger one.
 *
 * @example
 * honouredRetryAfterMs(1_500); // 1500
 * honouredRetryAfterMs(30_000); // 8000
 * honouredRetryAfterMs(3_600_000); // undefined
 */
export function honouredRetryAfterMs(hintMs: number | undefined): number | undefined {
  if (hintMs === undefined || !(hintMs > 0) || hintMs > MAX_HONOURED_RETRY_AFTER_MS) {
    return undefined;
  }
  return Math.min(hintMs, MAX_RETRY_DELAY_MS);
}

/**
 * Exponential backoff with jitter for retry number `retryIndex` (0 = the first retry): 0.5 s, 1 s,
 * 2 s … capped at {@link MAX_RETRY_DELAY_MS}, each shortened by up to 25 % so clients that failed
 * together do not retry together.
 *
 * @example
 * backoffMs(0, () => 0); // 500
 * backoffMs(10, () => 0); // 8000
 */
export function backoffMs(retryIndex: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_BACKOFF_MS * 2 ** Math.max(0, retryIndex), MAX_RETRY_DELAY_MS);
  return base * (1 - random() * 0.25);
}

/**
 * How long to wait before retry number `retryIndex`: the server's hint as
 * {@link honouredRetryAfterMs} judges it, else {@link backoffMs}.
 *
 * @example
 * retryDelayMs(new Headers({ 'retry-after': '1' }), 0); // 1000
 * retryDelayMs(new Headers({ 'retry-after': '3600' }), 0) <= 500; // true: the hint is ignored
 */
export function retryDelayMs(
  headers: Headers | undefined,
  retryIndex: number,
  random: () => number = Math.random,
): number {
  return honouredRetryAfterMs(parseRetryAfterMs(headers)) ?? backoffMs(retryIndex, random);
}
