import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decryptFeishuEvent, encryptFeishuEvent, feishuSignature } from './crypto.js';
import { feishuMessageEvent, feishuRequest } from './events.js';
import { decodeFrame, encodeFrame } from './long-connection.js';
import { type FakeFeishuServer, startFakeFeishuServer } from './server.js';

let feishu: FakeFeishuServer;
beforeEach(async () => {
  feishu = await startFakeFeishuServer({ appId: 'cli_test', appSecret: 'app-secret' });
});
afterEach(() => feishu.close());

const post = (path: string, body: unknown, token?: string, method = 'POST') =>
  fetch(`${feishu.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });

async function token(): Promise<string> {
  const res = await post('/open-apis/auth/v3/tenant_access_token/internal', {
    app_id: 'cli_test',
    app_secret: 'app-secret',
  });
  return ((await res.json()) as { tenant_access_token: string }).tenant_access_token;
}

describe('fake Feishu open API', () => {
  it('issues a tenant token only for the configured app and refuses sends without one', async () => {
    const wrong = await post('/open-apis/auth/v3/tenant_access_token/internal', {
      app_id: 'cli_test',
      app_secret: 'nope',
    });
    expect(await wrong.json()).toMatchObject({ code: 10014 });
    const anonymous = await post('/open-apis/im/v1/messages?receive_id_type=chat_id', {
      receive_id: 'oc_1',
      msg_type: 'text',
      content: '{"text":"x"}',
    });
    expect(anonymous.status).toBe(401);
    expect(feishu.messages).toEqual([]);
  });

  it('records messages created in a chat, replies and card patches, and knows the chat of a reply', async () => {
    const t = await token();
    feishu.knowMessage('om_user', 'oc_1');
    await post(
      '/open-apis/im/v1/messages?receive_id_type=chat_id',
      { receive_id: 'oc_1', msg_type: 'text', content: '{"text":"working"}' },
      t,
    );
    const card = await post(
      '/open-apis/im/v1/messages/om_user/reply',
      { msg_type: 'interactive', content: '{"elements":[]}' },
      t,
    );
    const cardId = ((await card.json()) as { data: { message_id: string } }).data.message_id;
    const patched = await post(
      `/open-apis/im/v1/messages/${cardId}`,
      { content: '{"elements":[1]}' },
      t,
      'PATCH',
    );
    expect(patched.status).toBe(200);
    expect(feishu.messagesIn('oc_1').map((m) => [m.kind, m.text ?? m.content, m.updates])).toEqual([
      ['create', 'working', []],
      ['reply', { elements: [] }, [{ elements: [1] }]],
    ]);
  });

  it('sends a message once per uuid, as Feishu does for a retried send', async () => {
    const t = await token();
    const send = () =>
      post(
        '/open-apis/im/v1/messages?receive_id_type=chat_id',
        { receive_id: 'oc_1', msg_type: 'text', content: '{"text":"once"}', uuid: 'u-1' },
        t,
      );
    const first = (await (await send()).json()) as { data: { message_id: string } };
    const second = (await (await send()).json()) as { data: { message_id: string } };
    expect(second.data.message_id).toBe(first.data.message_id);
    expect(feishu.messages).toHaveLength(1);
  });

  it('answers a scripted 429 with its reset header once, then succeeds', async () => {
    const t = await token();
    feishu.fail({
      endpoint: 'create',
      status: 429,
      code: 99991400,
      headers: { 'x-ogw-ratelimit-reset': '2' },
    });
    const body = { receive_id: 'oc_1', msg_type: 'text', content: '{"text":"x"}' };
    const limited = await post('/open-apis/im/v1/messages?receive_id_type=chat_id', body, t);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ogw-ratelimit-reset')).toBe('2');
    expect(await limited.json()).toMatchObject({ code: 99991400 });
    const ok = await post('/open-apis/im/v1/messages?receive_id_type=chat_id', body, t);
    expect(ok.status).toBe(200);
    expect(feishu.messages).toHaveLength(1);
  });

  it('says what arrived when a wait is not satisfied', async () => {
    await expect(feishu.waitFor(() => false, 'a reply', 50)).rejects.toThrow(
      /timed out waiting for a reply; messages so far:\n {2}\(none\)/,
    );
  });
});

describe('Feishu event signing and encryption', () => {
  it('round-trips an encrypted event and signs the exact bytes sent', () => {
    const event = feishuMessageEvent({ chatId: 'oc_1', senderOpenId: 'ou_1', text: 'hi' });
    const encrypted = encryptFeishuEvent(event, 'key');
    expect(JSON.parse(decryptFeishuEvent(encrypted, 'key'))).toEqual(event);
    const { body, headers } = feishuRequest(event, { encryptKey: 'key', pretty: true });
    expect(body).toContain('\n  "encrypt"');
    expect(headers['x-lark-signature']).toBe(
      feishuSignature(
        headers['x-lark-request-timestamp'] as string,
        headers['x-lark-request-nonce'] as string,
        'key',
        body,
      ),
    );
    const flipped = body.replace('"encrypt"', '"encrypT"');
    expect(
      feishuSignature(
        headers['x-lark-request-timestamp'] as string,
        headers['x-lark-request-nonce'] as string,
        'key',
        flipped,
      ),
    ).not.toBe(headers['x-lark-signature']);
  });
});

describe('long-connection frames', () => {
  it('decodes what it encodes, headers and payload included', () => {
    const frame = {
      seqId: 300,
      logId: 7,
      service: 1,
      method: 1,
      headers: [
        { key: 'type', value: 'event' },
        { key: 'message_id', value: 'msg_1' },
      ],
      payload: new TextEncoder().encode('{"a":"你好"}'),
    };
    const decoded = decodeFrame(encodeFrame(frame));
    expect({ ...decoded, payload: Buffer.from(decoded.payload ?? []).toString('utf8') }).toEqual({
      ...frame,
      payload: '{"a":"你好"}',
    });
  });
});
