import { describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_LIMITS, nodeServerOptions } from './http-limits.js';

describe('HTTP limits', () => {
  it('by default give 10 s for the headers, 30 s for the request, 5 s of keep-alive and 16 KiB of headers, checked every second', () => {
    expect(DEFAULT_HTTP_LIMITS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxHeaderBytes: 16 * 1024,
    });
    expect(nodeServerOptions(DEFAULT_HTTP_LIMITS)).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      maxHeaderSize: 16 * 1024,
      connectionsCheckingInterval: 1_000,
    });
  });

  it.each([
    [400, 200],
    [1, 1],
    [3_000, 1_000],
  ])('checks a %i ms header timeout every %i ms at most', (headersTimeoutMs, interval) => {
    const options = nodeServerOptions({
      ...DEFAULT_HTTP_LIMITS,
      headersTimeoutMs,
      requestTimeoutMs: 30_000,
    });
    expect(options.connectionsCheckingInterval).toBe(interval);
  });

  it('refuses a request timeout shorter than the header timeout', () => {
    expect(() =>
      nodeServerOptions({
        ...DEFAULT_HTTP_LIMITS,
        headersTimeoutMs: 5_000,
        requestTimeoutMs: 1_000,
      }),
    ).toThrow(RangeError);
  });
});
