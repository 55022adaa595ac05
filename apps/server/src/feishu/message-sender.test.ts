import * as lark from '@larksuiteoapi/node-sdk';
import { type FakeFeishuServer, startFakeFeishuServer } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APP_ID, APP_SECRET, memoryLogger } from '../__fixtures__/harness.js';
import { RateLimiter } from '../chat/rate-limiter.js';
import { larkApi } from './feishu-api.js';
import { fetchHttpInstance } from './fetch-http.js';
import { MessageSender } from './message-sender.js';
import { sdkLogger } from './sdk-logger.js';

let fake: FakeFeishuServer;
let sleeps: number[];
let logger: ReturnType<typeof memoryLogger>;

/** A sender over the real SDK client, pointed at the fake, whose waits are recorded, not slept. */
function sender(appSecret = APP_SECRET) {
  const client = new lark.Client({
    appId: APP_ID,
    appSecret,
    domain: fake.url,
    cache: new lark.DefaultCache(),
    httpInstance: fetchHttpInstance(),
    logger: sdkLogger(logger, [APP_SECRET, appSecret]),
    loggerLevel: lark.LoggerLevel.warn,
  });
  return new MessageSender({
    api: larkApi(client),
    logger,
    knownSecrets: [APP_SECRET, appSecret],
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    limiter: new RateLimiter({ sleep: async () => {} }),
  });
}

const replies = () => fake.requests.filter((r) => r.endpoint === 'reply');

beforeEach(async () => {
  fake = await startFakeFeishuServer({ appId: APP_ID, appSecret: APP_SECRET });
  fake.knowMessage('om_user', 'oc_a');
  sleeps = [];
  logger = memoryLogger();
});
afterEach(() => fake.close());

describe('sending chat messages', () => {
  it('waits the x-ogw-ratelimit-reset time after a 429 and sends the message exactly once', async () => {
    fake.fail({
      endpoint: 'reply',
      status: 429,
      code: 99991400,
      headers: { 'x-ogw-ratelimit-reset': '2' },
    });
    const ids = await sender().sendText('oc_a', 'hello', { replyTo: 'om_user' });
    expect(ids).toHaveLength(1);
    expect(sleeps).toEqual([2000]);
    expect(fake.messages.map((m) => m.text)).toEqual(['hello']);
    // Both tries carry the same uuid, so Feishu could never send it twice.
    const uuids = replies().map((r) => (r.body as { uuid: string }).uuid);
    expect(uuids).toHaveLength(2);
    expect(new Set(uuids).size).toBe(1);
  });

  it('retries a rate limit reported with HTTP 200 and code 99991400', async () => {
    fake.fail({ endpoint: 'create', status: 200, code: 99991400 });
    expect(await sender().sendText('oc_a', 'x')).toHaveLength(1);
    expect(sleeps).toEqual([1000]);
  });

  it('does not retry a message Feishu calls malformed', async () => {
    fake.fail({ endpoint: 'reply', status: 400, code: 230002, msg: 'bad format' });
    expect(await sender().sendText('oc_a', 'hello', { replyTo: 'om_user' })).toEqual([]);
    expect(replies()).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(logger.lines.some((line) => line.includes('(format, not retried)'))).toBe(true);
  });

  it('backs off after server errors and gives up after three tries', async () => {
    fake.fail(
      { endpoint: 'create', status: 500, code: 1 },
      { endpoint: 'create', status: 502, code: 1 },
      { endpoint: 'create', status: 503, code: 1 },
    );
    expect(await sender().sendText('oc_a', 'x')).toEqual([]);
    expect(sleeps).toEqual([500, 1500]);
    expect(fake.messages).toEqual([]);
  });

  it('keeps the app secret out of every log line when the token request fails', async () => {
    fake.fail(
      { endpoint: 'token', status: 500, code: 1 },
      { endpoint: 'token', status: 500, code: 1 },
      { endpoint: 'token', status: 500, code: 1 },
    );
    expect(await sender().sendText('oc_a', 'x')).toEqual([]);
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.lines.join('\n')).not.toContain(APP_SECRET);
  });

  it('scrubs secrets from the text and splits a long one', async () => {
    const ids = await sender().sendText('oc_a', `key ${APP_SECRET}\n${'line\n'.repeat(1500)}`);
    expect(ids.length).toBeGreaterThan(1);
    expect(fake.messages[0]?.text?.startsWith('key [redacted]')).toBe(true);
  });
});
