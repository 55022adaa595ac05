import { MAX_RETRY_DELAY_MS } from '@tiny-claw/core/utils';
import { describe, expect, it } from 'vitest';
import { capRetryAfter } from './retry-after-fetch.js';

function answering(status: number, headers: Record<string, string>): typeof fetch {
  return async () => new Response('{}', { status, headers });
}

async function headersAfterCap(status: number, headers: Record<string, string>): Promise<Headers> {
  const response = await capRetryAfter(answering(status, headers), () => 0)('http://x');
  return response.headers;
}

describe('capRetryAfter: the SDK never sleeps more than 8 s between retries', () => {
  it('honours a retry-after of up to 8 s as sent', async () => {
    const headers = await headersAfterCap(429, { 'retry-after': '2' });
    expect(headers.get('retry-after')).toBe('2');
    expect(headers.get('retry-after-ms')).toBeNull();
  });

  it('caps a retry-after between 8 s and 60 s at 8 s', async () => {
    const hints: Array<Record<string, string>> = [
      { 'retry-after': '30' },
      { 'retry-after-ms': '45000' },
    ];
    for (const hint of hints) {
      const headers = await headersAfterCap(429, hint);
      expect(headers.get('retry-after')).toBeNull();
      expect(headers.get('retry-after-ms')).toBe(String(MAX_RETRY_DELAY_MS));
    }
  });

  it('drops a huge retry-after so the SDK falls back to its short backoff', async () => {
    const huge: Array<Record<string, string>> = [
      { 'retry-after': '3600' },
      { 'retry-after-ms': '900000' },
      { 'retry-after': 'Wed, 01 Jan 2125 00:00:00 GMT' },
    ];
    for (const value of huge) {
      const headers = await headersAfterCap(503, value);
      expect(headers.get('retry-after')).toBeNull();
      expect(headers.get('retry-after-ms')).toBeNull();
    }
  });

  it('keeps the status, the other headers and the body of a rewritten response', async () => {
    const fetchImpl = async () =>
      new Response('{"error":{"type":"rate_limit_error"}}', {
        status: 429,
        statusText: 'Too Many Requests',
        headers: { 'retry-after': '30', 'request-id': 'req_1' },
      });
    const response = await capRetryAfter(fetchImpl)('http://x');
    expect(response.status).toBe(429);
    expect(response.statusText).toBe('Too Many Requests');
    expect(response.headers.get('request-id')).toBe('req_1');
    expect(await response.text()).toBe('{"error":{"type":"rate_limit_error"}}');
  });

  it('leaves successful responses and their body untouched', async () => {
    const response = await capRetryAfter(answering(200, { 'retry-after': '3600' }))('http://x');
    expect(response.headers.get('retry-after')).toBe('3600');
    expect(await response.text()).toBe('{}');
  });
});
