import { backoffMs, honouredRetryAfterMs, parseRetryAfterMs } from './retry-after.js';
import { sleep as abortableSleep } from './sleep.js';

/**
 * The one retry policy of the tiny-claw providers. Each provider switches its SDK's own retries
 * off and runs every request through {@link withRetries}, so which failures are retried, how
 * often, how long the wait is and how an abort ends it are the same whichever vendor answers.
 *
 * @example
 * const turn = await withRetries(() => send(), { maxRetries: 2, signal, isRetryable, retryAfter });
 *
 * @module
 */

/**
 * Default number of retries after the first attempt (the vendor SDKs' own default).
 *
 * @example
 * withRetries(send, { maxRetries: DEFAULT_MAX_RETRIES, isRetryable });
 */
export const DEFAULT_MAX_RETRIES = 2;

/**
 * How {@link withRetries} decides and waits.
 *
 * @example
 * const options: RetryOptions = { maxRetries: 2, signal, isRetryable: (e) => e instanceof Busy };
 */
export interface RetryOptions {
  /** Retries after the first attempt; 0 means one attempt only. */
  maxRetries: number;
  /** Ends the wait before a retry at once, rejecting with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Whether this failure is worth another attempt. */
  isRetryable: (error: unknown) => boolean;
  /** The headers of the failed response, read for a `retry-after-ms` / `retry-after` hint. */
  retryAfter?: ((error: unknown) => Headers | undefined) | undefined;
  /** The wait itself; tests inject one that records the delay instead of waiting. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** Jitter source of the backoff, in [0, 1). */
  random?: (() => number) | undefined;
}

/**
 * Run `attempt` (given the number of retries made so far) until it succeeds, fails with an error
 * `isRetryable` rejects, or `maxRetries` retries were made; then rethrow its last error unchanged.
 * Between attempts it waits as long as the failed response asks (`retry-after`, honoured up to
 * 8 s, cut to 8 s up to 60 s, ignored beyond), else an exponential backoff with jitter (0.5 s,
 * 1 s, 2 s … at most 8 s). An abort — before, during or after an attempt, or during the wait —
 * rejects with the signal's reason, never with the attempt's error.
 *
 * @example
 * const response = await withRetries((retry) => client.send(body), {
 *   maxRetries: 2,
 *   signal,
 *   isRetryable: (error) => error instanceof HttpError && isRetryableStatus(error.status, error.headers),
 *   retryAfter: (error) => (error instanceof HttpError ? error.headers : undefined),
 * });
 */
export async function withRetries<T>(
  attempt: (retries: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const { signal, isRetryable } = options;
  const wait = options.sleep ?? abortableSleep;
  for (let retries = 0; ; retries += 1) {
    signal?.throwIfAborted();
    try {
      return await attempt(retries);
    } catch (error) {
      signal?.throwIfAborted();
      if (retries >= options.maxRetries || !isRetryable(error)) throw error;
      const hint = honouredRetryAfterMs(parseRetryAfterMs(options.retryAfter?.(error)));
      await wait(hint ?? backoffMs(retries, options.random), signal);
    }
  }
}

/**
 * Whether an HTTP error status is worth another attempt: the server's `x-should-retry` header
 * wins; otherwise 408 (request timeout), 409 (lock conflict), 429 (rate limit) and every 5xx,
 * including 529 (overloaded), are; any other status is the request's own fault.
 *
 * @example
 * isRetryableStatus(529); // true
 * isRetryableStatus(500, new Headers({ 'x-should-retry': 'false' })); // false
 */
export function isRetryableStatus(status: number, headers?: Headers): boolean {
  const hint = headers?.get('x-should-retry');
  if (hint === 'true') return true;
  if (hint === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
