/**
 * The longest wait between SDK retries this package allows, whatever the server asks.
 *
 * @example
 * expect(elapsedMs).toBeLessThan(MAX_RETRY_WAIT_MS + 500);
 */
export const MAX_RETRY_WAIT_MS = 8_000;

/**
 * A `retry-after` above this is a quota reset, not a blip: waiting even {@link MAX_RETRY_WAIT_MS}
 * for it only delays the failure, so the header is dropped and the SDK's short backoff applies.
 *
 * @example
 * if (waitMs > IGNORE_RETRY_AFTER_ABOVE_MS) headers.delete('retry-after');
 */
export const IGNORE_RETRY_AFTER_ABOVE_MS = 60_000;

/**
 * Wrap `fetchImpl` so the SDK never sleeps longer than {@link MAX_RETRY_WAIT_MS} between retries.
 *
 * Why: `@anthropic-ai/sdk` 1.x honours `retry-after` / `retry-after-ms` up to 2^31 ms, so one
 * `retry-after: 3600` would freeze the agent for an hour per retry. Error responses whose wait is
 * above 8 s are rewritten to `retry-after-ms: 8000`; above 60 s the headers are removed so the
 * SDK's own backoff (0.5 s × 2^n, at most 8 s, with jitter) applies. Waits up to 8 s are honoured
 * as sent. Successful responses pass through untouched.
 *
 * @example
 * const client = new Anthropic({ apiKey, fetch: capRetryAfter(globalThis.fetch) });
 */
export function capRetryAfter(fetchImpl: typeof fetch, now: () => number = Date.now): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (response.status < 400) return response;
    const waitMs = requestedWaitMs(response.headers, now());
    if (waitMs === undefined || waitMs <= MAX_RETRY_WAIT_MS) return response;
    const headers = new Headers(response.headers);
    headers.delete('retry-after');
    headers.delete('retry-after-ms');
    if (waitMs <= IGNORE_RETRY_AFTER_ABOVE_MS)
      headers.set('retry-after-ms', String(MAX_RETRY_WAIT_MS));
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}

/**
 * The wait the server asked for, in ms, read the way the SDK reads it (`retry-after-ms` first, then
 * `retry-after` as seconds or an HTTP date); `undefined` when absent or unusable.
 *
 * @example
 * requestedWaitMs(new Headers({ 'retry-after': '2' }), Date.now()); // 2000
 */
export function requestedWaitMs(headers: Headers, nowMs: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms) {
    const value = Number.parseFloat(ms);
    if (!Number.isNaN(value)) return value;
  }
  const after = headers.get('retry-after');
  if (!after) return undefined;
  const seconds = Number.parseFloat(after);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : date - nowMs;
}
