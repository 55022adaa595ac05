/**
 * When and how long to wait before retrying. This mirrors the `openai` SDK's own policy (which we
 * switch off with `maxRetries: 0`) with two fixes: a `retry-after` is never slept for more than
 * {@link MAX_RETRY_DELAY_MS} (openai@6 sleeps for whatever the server says, even an hour), and the
 * wait is abortable (the SDK's sleep ignores the signal, so Ctrl-C would hang until it ends).
 *
 * @example
 * if (shouldRetryStatus(503, headers)) await sleep(retryDelayMs(headers, 0), signal);
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
/** A server hint beyond this is treated as junk and replaced by the backoff. */
const MAX_HONOURED_HINT_MS = 60_000;
const INITIAL_DELAY_MS = 500;

/**
 * Whether an HTTP error status is worth another attempt: the server's `x-should-retry` wins;
 * otherwise 408, 409, 429 and 5xx are.
 *
 * @example
 * shouldRetryStatus(500, new Headers({ 'x-should-retry': 'false' })); // false
 */
export function shouldRetryStatus(status: number, headers: Headers | undefined): boolean {
  const hint = headers?.get('x-should-retry');
  if (hint === 'true') return true;
  if (hint === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * How long to wait before retry number `retryIndex` (0 = first retry): the server's
 * `retry-after-ms` or `retry-after` (seconds or an HTTP date) when it is between 0 and 60 s, capped
 * at 8 s; else exponential backoff from 0.5 s, capped at 8 s, with up to 25 % jitter.
 *
 * @example
 * retryDelayMs(new Headers({ 'retry-after': '1' }), 0); // 1000
 * retryDelayMs(new Headers({ 'retry-after': '3600' }), 0) <= 8000; // true
 */
export function retryDelayMs(
  headers: Headers | undefined,
  retryIndex: number,
  random: () => number = Math.random,
): number {
  const hint = serverHintMs(headers);
  if (hint !== undefined && hint > 0 && hint <= MAX_HONOURED_HINT_MS) {
    return Math.min(hint, MAX_RETRY_DELAY_MS);
  }
  return backoffMs(retryIndex, random);
}

/**
 * Exponential backoff with jitter: 0.5 s, 1 s, 2 s … capped at 8 s, each shortened by up to 25 %.
 *
 * @example
 * backoffMs(0, () => 0); // 500
 */
export function backoffMs(retryIndex: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_DELAY_MS * 2 ** Math.max(0, retryIndex), MAX_RETRY_DELAY_MS);
  return base * (1 - random() * 0.25);
}

function serverHintMs(headers: Headers | undefined): number | undefined {
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
  return Number.isNaN(date) ? undefined : date - Date.now();
}

/**
 * Wait `ms`, or reject with the signal's reason as soon as it aborts.
 *
 * @example
 * await sleep(500, controller.signal);
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
