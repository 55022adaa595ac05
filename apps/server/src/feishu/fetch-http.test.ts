import { describe, expect, it } from 'vitest';
import { toFeishuApiError } from './feishu-api-error.js';
import { FeishuHttpError, fetchHttpInstance } from './fetch-http.js';

describe('the HTTP client of the Feishu SDK', () => {
  it('gives up on a call that gets no answer in time, so a send can be retried or dropped', async () => {
    const hanging: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    const http = fetchHttpInstance({ timeoutMs: 20, fetch: hanging });
    const call = http.request({
      url: 'http://127.0.0.1:9/open-apis/im/v1/messages',
      method: 'POST',
      data: { a: 1 },
    });
    await expect(call).rejects.toThrow(FeishuHttpError);
    await expect(call).rejects.toThrow('no answer within 20 ms');
    expect(toFeishuApiError(await call.catch((e: unknown) => e)).kind).toBe('unknown');
  });

  it('returns the parsed body, and throws status, reset header and body for a refusal', async () => {
    const seen: Array<{ url: string; body: unknown; type: string | null }> = [];
    const fake: typeof fetch = async (url, init) => {
      seen.push({
        url: String(url),
        body: init?.body,
        type: new Headers(init?.headers).get('content-type'),
      });
      return String(url).includes('limited')
        ? new Response('{"code":99991400,"msg":"slow down"}', {
            status: 429,
            headers: { 'x-ogw-ratelimit-reset': '3' },
          })
        : new Response('{"code":0,"data":{"message_id":"om_1"}}');
    };
    const http = fetchHttpInstance({ fetch: fake });
    expect(
      await http.request({
        url: 'http://h/ok',
        method: 'POST',
        params: { receive_id_type: 'chat_id' },
        data: { x: 1 },
      }),
    ).toEqual({
      code: 0,
      data: { message_id: 'om_1' },
    });
    expect(seen[0]).toEqual({
      url: 'http://h/ok?receive_id_type=chat_id',
      body: '{"x":1}',
      type: 'application/json; charset=utf-8',
    });
    const refused = await http.post('http://h/limited', {}).catch((e: unknown) => e);
    const failure = toFeishuApiError(refused);
    expect([failure.kind, failure.status, failure.code, failure.resetMs]).toEqual([
      'rate_limited',
      429,
      99991400,
      3000,
    ]);
  });
});
