/**
 * Which failed HTTP requests are worth another attempt. This provider makes its own retries (the
 * `openai` SDK's are switched off with `maxRetries: 0`) so that the wait follows the shared
 * retry-after policy of `@tiny-claw/core/utils` (never more than 8 s, whatever the server asks)
 * and an abort interrupts it; which statuses are retried stays the SDK's judgement.
 *
 * @example
 * if (shouldRetryStatus(503, headers)) await sleep(retryDelayMs(headers, 0), signal);
 *
 * @module
 */

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
