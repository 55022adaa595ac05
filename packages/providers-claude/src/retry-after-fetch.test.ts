import { describe, expect, it } from 'vitest';
import { capRetryAfter, MAX_RETRY_WAIT_MS, requestedWaitMs } from './retry-after-fetch.js';

function answering(status: number, headers: Record<string, string>): typeof fetch {
  return async () => new Response('{}', { status, headers });
}

async function headersAfterCap(status: number, headers: Record<string, string>): Promise<Headers> {
  const response = await capRetryAfter(answering(status, headers), () => 0)('http://x');
  return response.headers;
}

describe('capRetryAfter (P2: never sleep more than 8 s)', () => {
  it('honours a retry-after of up to 8 s as sent', async () => {
    const headers = await headersAfterCap(429, { 'retry-after': '2' });
    expect(headers.get('retry-after')).toBe('2');
    expect(headers.get('retry-after-ms')).toBeNull();
  });

  it('caps a retry-after between 8 s and 60 s at 8 s', async () => {
    const headers = await headersAfterCap(429, { 'retry-after': '30' });
    expect(headers.get('retry-after')).toBeNull();
    expect(headers.get('retry-after-ms')).toBe(String(MAX_RETRY_WAIT_MS));
  });

  it('drops a huge retry-after so the SDK falls back to its short backoff', async () => {
    const huge: Array<Record<string, string>> = [
      { 'retry-after': '3600' },
      { 'retry-after-ms': '900000' },
    ];
    for (const value of huge) {
      const headers = await headersAfterCap(503, value);
      expect(headers.get('retry-after')).toBeNull();
      expect(headers.get('retry-after-ms')).toBeNull();
    }
  });

  it('leaves successful responses and their body untouched', async () => {
    const response = await capRetryAfter(answering(200, { 'retry-after': '3600' }))('http://x');
    expect(response.headers.get('retry-after')).toBe('3600');
    expect(await response.text()).toBe('{}');
  });

  it('reads the wait the way the SDK does: ms first, then seconds, then an HTTP date', () => {
    expect(requestedWaitMs(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }), 0)).toBe(
      1500,
    );
    expect(requestedWaitMs(new Headers({ 'retry-after': '2' }), 0)).toBe(2000);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(
      requestedWaitMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now),
    ).toBe(3000);
    expect(requestedWaitMs(new Headers(), 0)).toBeUndefined();
  });
});
