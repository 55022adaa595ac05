import { honouredRetryAfterMs, MAX_RETRY_DELAY_MS, parseRetryAfterMs } from '@tiny-claw/core/utils';

/**
 * Wrap `fetchImpl` so the SDK's retry waits follow the retry-after policy shared by the tiny-claw
 * providers: a hint of up to 8 s is honoured as sent, one of up to 60 s is cut to 8 s, a larger one
 * is dropped so the SDK's own short backoff (0.5 s × 2^n, at most 8 s, with jitter) applies.
 *
 * Why a fetch wrapper: `@anthropic-ai/sdk` 1.x makes the retries itself and honours
 * `retry-after` / `retry-after-ms` up to 2^31 ms, so one `retry-after: 3600` would freeze the agent
 * for an hour per retry; the headers it reads are the only lever. Error responses are rewritten
 * (`retry-after-ms: 8000`, or no hint at all); successful ones pass through untouched.
 *
 * @example
 * const client = new Anthropic({ apiKey, fetch: capRetryAfter(globalThis.fetch) });
 */
export function capRetryAfter(fetchImpl: typeof fetch, now: () => number = Date.now): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (response.status < 400) return response;
    const hintMs = parseRetryAfterMs(response.headers, now());
    if (hintMs === undefined || hintMs <= MAX_RETRY_DELAY_MS) return response;
    const headers = new Headers(response.headers);
    headers.delete('retry-after');
    headers.delete('retry-after-ms');
    const waitMs = honouredRetryAfterMs(hintMs);
    if (waitMs !== undefined) headers.set('retry-after-ms', String(waitMs));
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}
