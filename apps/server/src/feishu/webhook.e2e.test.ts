import { ScriptedProvider } from '@tiny-claw/core/testing';
import {
  encryptFeishuEvent,
  feishuChallenge,
  feishuMessageEvent,
  feishuRequest,
  feishuSignature,
  signFeishuRequest,
} from '@tiny-claw/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENCRYPT_KEY,
  type Harness,
  startHarness,
  VERIFICATION_TOKEN,
} from '../__fixtures__/harness.js';

const JSON_TYPE = { 'content-type': 'application/json' };
const message = (text = 'hello') =>
  feishuMessageEvent({ chatId: 'oc_a', senderOpenId: 'ou_ann', text, token: VERIFICATION_TOKEN });

describe('the webhook with an encrypt key and a verification token', () => {
  let h: Harness;
  let provider: ScriptedProvider;
  beforeAll(async () => {
    provider = new ScriptedProvider({ turns: Array.from({ length: 20 }, () => ({ text: 'ok' })) });
    h = await startHarness({ provider });
  });
  afterAll(() => h.close());

  /** Nothing a refused request does may reach the model. */
  const expectNoRun = () => expect(provider.requests).toEqual([]);

  it('refuses an event without any of the three signature headers', async () => {
    for (const drop of ['x-lark-signature', 'x-lark-request-nonce', 'x-lark-request-timestamp']) {
      const { body, headers } = feishuRequest(message(), { encryptKey: ENCRYPT_KEY });
      delete headers[drop];
      expect((await h.postRaw(body, headers)).status).toBe(401);
    }
    const unsigned = feishuRequest(message(), { encryptKey: ENCRYPT_KEY, unsigned: true });
    expect((await h.postRaw(unsigned.body, unsigned.headers)).status).toBe(401);
    expectNoRun();
  });

  it('refuses forged signatures without an exception on a length mismatch', async () => {
    const { body, headers } = feishuRequest(message(), { encryptKey: ENCRYPT_KEY });
    const ts = headers['x-lark-request-timestamp'] as string;
    const nonce = headers['x-lark-request-nonce'] as string;
    const valid = headers['x-lark-signature'] as string;
    const forged = [
      'a'.repeat(64),
      feishuSignature(ts, nonce, ENCRYPT_KEY, `${body} `),
      valid.toUpperCase(),
      valid.slice(0, 63),
      '',
      feishuSignature(ts, nonce, 'a-wrong-key', body),
    ];
    for (const signature of forged) {
      const response = await h.postRaw(body, { ...headers, 'x-lark-signature': signature });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'unauthorized' });
    }
    expectNoRun();
  });

  it('refuses a body changed after it was signed', async () => {
    const { body, headers } = feishuRequest(message(), { encryptKey: ENCRYPT_KEY });
    const flipped = body.replace(
      /"encrypt":"(.)/,
      (_all, c: string) => `"encrypt":"${c === 'A' ? 'B' : 'A'}`,
    );
    expect(flipped).not.toBe(body);
    expect((await h.postRaw(flipped, headers)).status).toBe(401);
    expectNoRun();
  });

  it('refuses a plaintext event while an encrypt key is configured (a downgrade)', async () => {
    const { body, headers } = feishuRequest(message(), {
      encryptKey: ENCRYPT_KEY,
      plaintext: true,
    });
    expect((await h.postRaw(body, headers)).status).toBe(401);
    expectNoRun();
  });

  it('refuses timestamps that are not recent seconds', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const timestamp of [
      'abc',
      '-1',
      '99999999999999999999',
      String(now - 13 * 3600),
      String(now + 24 * 3600),
    ]) {
      const { body, headers } = feishuRequest(message(), { encryptKey: ENCRYPT_KEY, timestamp });
      expect((await h.postRaw(body, headers)).status).toBe(401);
    }
    expectNoRun();
  });

  it('answers 400 to an encrypt field that does not decrypt, without crashing', async () => {
    const good = encryptFeishuEvent(message(), ENCRYPT_KEY);
    const bytes = Buffer.from(good, 'base64');
    const badPadding = Buffer.from(bytes);
    badPadding[badPadding.length - 1] = (badPadding[badPadding.length - 1] as number) ^ 0xff;
    const samples = [
      encryptFeishuEvent(message(), 'some-other-key'),
      'not base64 at all!',
      bytes.subarray(0, 16).toString('base64'),
      bytes.subarray(0, 40).toString('base64'),
      badPadding.toString('base64'),
      encryptFeishuEvent('this is not json', ENCRYPT_KEY),
      encryptFeishuEvent('null', ENCRYPT_KEY),
      encryptFeishuEvent('[]', ENCRYPT_KEY),
    ];
    for (const encrypt of samples) {
      const body = JSON.stringify({ encrypt });
      const response = await h.postRaw(body, {
        ...JSON_TYPE,
        ...signFeishuRequest(body, ENCRYPT_KEY),
      });
      expect(response.status).toBe(400);
    }
    expect((await fetch(`${h.server.url}/health`)).status).toBe(200);
    expectNoRun();
  });

  it('answers the url_verification challenge, unsigned as Feishu sends it, only with the right token', async () => {
    const challenge = (token: string | undefined, value: unknown = 'c-42') => {
      const event: Record<string, unknown> = {
        ...feishuChallenge('x', token ?? ''),
        challenge: value,
      };
      if (token === undefined) delete event.token;
      return feishuRequest(event, { encryptKey: ENCRYPT_KEY, unsigned: true });
    };
    const ok = challenge(VERIFICATION_TOKEN);
    const answer = await h.postRaw(ok.body, ok.headers);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ challenge: 'c-42' });
    const wrong = challenge('wrong-token');
    expect((await h.postRaw(wrong.body, wrong.headers)).status).toBe(401);
    const missing = challenge(undefined);
    expect((await h.postRaw(missing.body, missing.headers)).status).toBe(401);
    const object = challenge(VERIFICATION_TOKEN, { nested: true });
    expect((await h.postRaw(object.body, object.headers)).status).toBe(400);
    const huge = challenge(VERIFICATION_TOKEN, 'x'.repeat(1024 * 1024));
    expect((await h.postRaw(huge.body, huge.headers)).status).toBe(413);
  });

  it('refuses a wrong token and shapes Feishu never sends', async () => {
    const wrongToken = feishuMessageEvent({
      chatId: 'oc_a',
      senderOpenId: 'ou_ann',
      text: 'x',
      token: 'nope',
    });
    expect((await h.deliver(wrongToken)).status).toBe(401);
    expect(
      (await h.deliver({ uuid: 'u1', token: 'nope', event: { type: 'message' } })).status,
    ).toBe(401);
    expect(
      (await h.deliver({ uuid: 'u1', token: VERIFICATION_TOKEN, event: { type: 'message' } }))
        .status,
    ).toBe(200);
    const v3 = { ...message(), schema: '3.0' };
    const noHeader: Record<string, unknown> = { ...message() };
    delete noHeader.header;
    const noEvent: Record<string, unknown> = { ...message() };
    delete noEvent.event;
    for (const shape of [v3, noHeader, noEvent]) expect((await h.deliver(shape)).status).toBe(400);
    expectNoRun();
  });

  it('acknowledges and ignores event types it does not subscribe to', async () => {
    const other = message();
    other.header.event_type = 'contact.user.deleted_v3';
    const response = await h.deliver(other);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expectNoRun();
  });

  it('refuses oversized, deeply nested and whitespace bodies without blocking the server', async () => {
    const tenMegabytes = JSON.stringify({ encrypt: 'A'.repeat(10 * 1024 * 1024) });
    expect((await h.postRaw(tenMegabytes, JSON_TYPE)).status).toBe(413);
    const whitespace = `${' '.repeat(1024 * 1024)}{}`;
    expect((await h.postRaw(whitespace, JSON_TYPE)).status).toBe(413);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const signedDeep = await h.postRaw(deep, {
      ...JSON_TYPE,
      ...signFeishuRequest(deep, ENCRYPT_KEY),
    });
    expect(signedDeep.status).toBe(400);
    expect((await fetch(`${h.server.url}/health`)).status).toBe(200);
    expectNoRun();
  });

  it('keeps the object prototype clean whatever keys an event carries', async () => {
    const polluted = JSON.parse(
      JSON.stringify(message()).replace(
        '"event":{',
        '"event":{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}},',
      ),
    );
    expect((await h.deliver(polluted)).status).toBe(200);
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
    expect((Object.prototype as { isAdmin?: boolean }).isAdmin).toBeUndefined();
  });

  it('answers 405 to other methods, 415 to other content types and 400 to empty or non-object bodies', async () => {
    const url = `${h.server.url}/api/events/feishu`;
    expect((await fetch(url)).status).toBe(405);
    expect((await fetch(url, { method: 'PUT', headers: JSON_TYPE, body: '{}' })).status).toBe(405);
    expect(
      (await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }))
        .status,
    ).toBe(415);
    for (const body of ['', 'null', '"str"', '[]']) {
      const headers =
        body === '' ? JSON_TYPE : { ...JSON_TYPE, ...signFeishuRequest(body, ENCRYPT_KEY) };
      expect((await h.postRaw(body, headers)).status).toBe(400);
    }
    expect((await fetch(`${h.server.url}/nowhere`)).status).toBe(404);
  });

  it('accepts a pretty-printed body, and one with escaped slashes, signed over the bytes as sent', async () => {
    const pretty = feishuRequest(message('pretty'), { encryptKey: ENCRYPT_KEY, pretty: true });
    expect(pretty.body).toContain('\n');
    expect((await h.postRaw(pretty.body, pretty.headers)).status).toBe(200);
    const encrypt = encryptFeishuEvent(message('escaped'), ENCRYPT_KEY);
    const escaped = `{"encrypt":"${encrypt.replaceAll('/', '\\u002f')}"}`;
    expect(escaped).toContain('\\u002f');
    const response = await h.postRaw(escaped, {
      ...JSON_TYPE,
      ...signFeishuRequest(escaped, ENCRYPT_KEY),
    });
    expect(response.status).toBe(200);
    await h.feishu.waitFor(() => provider.requests.length === 2, 'both runs');
  });
});

describe('the webhook with a verification token only', () => {
  let h: Harness;
  let provider: ScriptedProvider;
  beforeAll(async () => {
    provider = new ScriptedProvider({ turns: [{ text: 'ok' }] });
    h = await startHarness({ provider, noEncryptKey: true });
  });
  afterAll(() => h.close());

  it('answers 400 to an encrypted event it has no key for', async () => {
    const body = JSON.stringify({ encrypt: encryptFeishuEvent(message(), ENCRYPT_KEY) });
    expect((await h.postRaw(body, JSON_TYPE)).status).toBe(400);
    expect(provider.requests).toEqual([]);
  });

  it('answers the plaintext challenge with the right token and refuses the wrong one', async () => {
    const ok = await h.deliver(feishuChallenge('c-1', VERIFICATION_TOKEN));
    expect(await ok.json()).toEqual({ challenge: 'c-1' });
    expect((await h.deliver(feishuChallenge('c-1', 'wrong'))).status).toBe(401);
  });

  it('runs a plaintext event carrying the right token', async () => {
    const event = message('plain');
    expect((await h.deliver(event)).status).toBe(200);
    await h.feishu.waitFor(() =>
      h.feishu.messages.some((m) => m.replyTo === event.event.message.message_id),
    );
  });
});
