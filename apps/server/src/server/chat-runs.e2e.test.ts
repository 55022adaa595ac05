import { ScriptedProvider } from '@tiny-claw/core/testing';
import { feishuMessageEvent } from '@tiny-claw/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APP_SECRET,
  ENCRYPT_KEY,
  GatedProvider,
  type Harness,
  startHarness,
  untilIdle,
  VERIFICATION_TOKEN,
} from '../__fixtures__/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const repliesTo = (h: Harness, messageId: string) =>
  h.feishu.messages.filter((m) => m.kind === 'reply' && m.replyTo === messageId);

describe('chat runs over the webhook', () => {
  it('acknowledges a signed, encrypted text message before its run can start, then posts progress and the answer as a reply', async () => {
    const provider = new GatedProvider((prompt) => `done: ${prompt}`);
    harness = await startHarness({ provider });
    const { response, messageId } = await harness.say('oc_team', 'ou_ann', 'fix the build');
    // The model call is still held: an ack that waited for the run could not have come back.
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    await provider.until(() => provider.active === 1);
    expect(repliesTo(harness, messageId)).toEqual([]);

    provider.release('fix the build');
    await harness.feishu.waitFor(
      () => repliesTo(harness as Harness, messageId).length > 0,
      'the answer',
    );
    expect(repliesTo(harness, messageId).map((m) => m.text)).toEqual(['done: fix the build']);
    const progress = harness.feishu.messagesIn('oc_team').filter((m) => m.kind === 'create');
    expect(progress[0]?.text).toBe('Working on it (act mode, up to 8 steps).');
  });

  it('runs a message once when Feishu delivers the same event again, also after a restart', async () => {
    const provider = new ScriptedProvider({
      turns: [{ text: 'first answer' }, { text: 'second answer' }],
    });
    harness = await startHarness({ provider });
    const event = feishuMessageEvent({
      chatId: 'oc_a',
      senderOpenId: 'ou_ann',
      text: 'hello',
      token: VERIFICATION_TOKEN,
    });
    const id = event.event.message.message_id;
    expect((await harness.deliver(event)).status).toBe(200);
    await harness.feishu.waitFor(
      () => repliesTo(harness as Harness, id).length === 1,
      'the answer',
    );
    expect((await harness.deliver(event)).status).toBe(200);

    // The same state dir, a new process: the event id is remembered on disk.
    const { ws, feishu } = harness;
    await harness.server.close();
    const restarted = await startHarness({ provider, workspace: ws, feishu });
    try {
      expect((await restarted.deliver(event)).status).toBe(200);
      const other = await restarted.say('oc_a', 'ou_ann', 'another question');
      await feishu.waitFor(
        () => repliesTo(restarted, other.messageId).length === 1,
        'the second answer',
      );
    } finally {
      await restarted.server.close();
    }
    expect(provider.requests).toHaveLength(2);
    expect(repliesTo(harness, id).map((m) => m.text)).toEqual(['first answer']);
  });

  it('runs a message once when it comes again under a new event id', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'only once' }] });
    harness = await startHarness({ provider });
    const first = feishuMessageEvent({
      chatId: 'oc_a',
      senderOpenId: 'ou_ann',
      text: 'hi',
      token: VERIFICATION_TOKEN,
    });
    const again = structuredClone(first);
    again.header.event_id = 'ev_another_delivery';
    expect((await harness.deliver(first)).status).toBe(200);
    expect((await harness.deliver(again)).status).toBe(200);
    await harness.feishu.waitFor(
      () => repliesTo(harness as Harness, first.event.message.message_id).length === 1,
    );
    await harness.server.close();
    expect(provider.requests).toHaveLength(1);
  });

  it('runs exactly one of twenty concurrent deliveries of one event', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'once' }, { text: 'twice' }] });
    harness = await startHarness({ provider });
    const event = feishuMessageEvent({
      chatId: 'oc_a',
      senderOpenId: 'ou_ann',
      text: 'hi',
      token: VERIFICATION_TOKEN,
    });
    const responses = await Promise.all(Array.from({ length: 20 }, () => harness?.deliver(event)));
    expect(responses.map((r) => r?.status)).toEqual(Array(20).fill(200));
    await harness.server.close();
    expect(provider.requests).toHaveLength(1);
    expect(repliesTo(harness, event.event.message.message_id).map((m) => m.text)).toEqual(['once']);
  });

  it('never runs two messages of one chat at once, while two chats run side by side', async () => {
    const provider = new GatedProvider();
    harness = await startHarness({ provider });
    const a1 = await harness.say('oc_alpha', 'ou_ann', 'alpha one');
    const a2 = await harness.say('oc_alpha', 'ou_ann', 'alpha two');
    const b1 = await harness.say('oc_beta', 'ou_bob', 'beta one');
    for (const { response } of [a1, a2, b1]) expect(response.status).toBe(200);

    // Both chats are in a model call at the same time; the second alpha message waits its turn.
    await provider.until(() => provider.active === 2);
    expect(provider.started.some((p) => p.includes('alpha one'))).toBe(true);
    expect(provider.started.some((p) => p.includes('beta one'))).toBe(true);
    expect(provider.started.some((p) => p.includes('alpha two'))).toBe(false);
    expect(harness.server.health().runs).toEqual({ running: 2, waiting: 1 });

    provider.release('beta one');
    provider.release('alpha two');
    await harness.feishu.waitFor(
      () => repliesTo(harness as Harness, b1.messageId).length === 1,
      'beta answer',
    );
    expect(provider.started.some((p) => p.includes('alpha two'))).toBe(false);
    provider.release('alpha one');
    await harness.feishu.waitFor(
      () => repliesTo(harness as Harness, a2.messageId).length === 1,
      'alpha two answer',
    );
    const alphaReplies = harness.feishu.messages.filter(
      (m) => m.replyTo === a1.messageId || m.replyTo === a2.messageId,
    );
    expect(alphaReplies.map((m) => m.text)).toEqual([
      expect.stringContaining('alpha one'),
      expect.stringContaining('alpha two'),
    ]);
  });

  it('answers /health while a long run is in progress', async () => {
    const provider = new GatedProvider();
    harness = await startHarness({ provider });
    await harness.say('oc_a', 'ou_ann', 'a long task');
    await provider.until(() => provider.active === 1);
    const health = await fetch(`${harness.server.url}/health`);
    expect(health.status).toBe(200);
    const body = await health.json();
    expect(body).toMatchObject({
      status: 'ok',
      provider: { name: 'gated' },
      feishu: {
        configured: true,
        mode: 'webhook',
        domain: 'custom',
        verification: 'signature and token',
      },
      runs: { running: 1, waiting: 0 },
    });
    const text = JSON.stringify(body);
    for (const secret of [
      APP_SECRET,
      ENCRYPT_KEY,
      VERIFICATION_TOKEN,
      harness.feishu.url,
      harness.ws.dir,
    ]) {
      expect(text).not.toContain(secret);
    }
    provider.release('a long task');
  });

  it('ignores messages from bots and from the app itself', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'should not run' }] });
    harness = await startHarness({ provider });
    for (const senderType of ['app', 'bot']) {
      const event = feishuMessageEvent({
        chatId: 'oc_a',
        senderOpenId: 'ou_bot',
        text: 'echo',
        senderType,
        token: VERIFICATION_TOKEN,
      });
      expect((await harness.deliver(event)).status).toBe(200);
    }
    await harness.server.close();
    expect(provider.requests).toEqual([]);
    expect(harness.feishu.messages).toEqual([]);
  });

  it('drops a message sent more than 30 minutes ago', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'late' }] });
    harness = await startHarness({ provider });
    const event = feishuMessageEvent({
      chatId: 'oc_a',
      senderOpenId: 'ou_ann',
      text: 'old',
      token: VERIFICATION_TOKEN,
      createTime: Date.now() - 31 * 60 * 1000,
    });
    expect((await harness.deliver(event)).status).toBe(200);
    await harness.server.close();
    expect(provider.requests).toEqual([]);
    expect(
      harness.logger.lines.some((line) => line.includes('sent more than 30 minutes ago')),
    ).toBe(true);
  });

  it('strips mention placeholders before the prompt reaches the model', async () => {
    const provider = new GatedProvider();
    harness = await startHarness({ provider });
    const event = feishuMessageEvent({
      chatId: 'oc_a',
      senderOpenId: 'ou_ann',
      text: '@_user_1  what is in a.txt?',
      mentions: [{ key: '@_user_1', openId: 'ou_bot', name: 'claw' }],
      token: VERIFICATION_TOKEN,
    });
    await harness.deliver(event);
    await provider.until(() => provider.started.length === 1);
    expect(provider.started[0]).toBe('what is in a.txt?');
    provider.release('a.txt');
  });

  it('answers other message types with a polite text-only reply, and ignores unreadable content with a log line', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'never' }] });
    harness = await startHarness({ provider });
    const image = feishuMessageEvent({
      chatId: 'oc_a',
      senderOpenId: 'ou_ann',
      messageType: 'image',
      content: '{"image_key":"img_1"}',
      token: VERIFICATION_TOKEN,
    });
    const broken = feishuMessageEvent({
      chatId: 'oc_a',
      senderOpenId: 'ou_ann',
      content: '{not json',
      token: VERIFICATION_TOKEN,
    });
    const numeric = feishuMessageEvent({
      chatId: 'oc_a',
      senderOpenId: 'ou_ann',
      content: '{"text":123}',
      token: VERIFICATION_TOKEN,
    });
    const missing = feishuMessageEvent({
      chatId: 'oc_a',
      senderOpenId: 'ou_ann',
      token: VERIFICATION_TOKEN,
    });
    delete (missing.event.message as { content?: string }).content;
    for (const event of [image, broken, numeric, missing])
      expect((await harness.deliver(event)).status).toBe(200);
    await harness.feishu.waitFor(
      () => repliesTo(harness as Harness, image.event.message.message_id).length === 1,
    );
    await untilIdle(harness.server);
    await harness.server.close();
    expect(repliesTo(harness, image.event.message.message_id)[0]?.text).toMatch(
      /only read text messages/,
    );
    expect(provider.requests).toEqual([]);
    expect(
      harness.logger.lines.filter((line) => line.includes("content is not a text message's")),
    ).toHaveLength(3);
  });

  it('splits a long answer into replies that keep code blocks whole', async () => {
    const code = Array.from(
      { length: 300 },
      (_, i) => `const line${i} = ${i}; // padding padding`,
    ).join('\n');
    const provider = new ScriptedProvider({
      turns: [{ text: `Here:\n\`\`\`ts\n${code}\n\`\`\`\nThat is all.` }],
    });
    harness = await startHarness({ provider });
    const { messageId } = await harness.say('oc_a', 'ou_ann', 'show me');
    await harness.feishu.waitFor(
      () => repliesTo(harness as Harness, messageId).some((m) => m.text?.endsWith('That is all.')),
      'the last chunk',
    );
    const chunks = repliesTo(harness, messageId).map((m) => m.text ?? '');
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(3500);
      expect(chunk.split('\n').filter((line) => line.startsWith('```')).length % 2).toBe(0);
    }
  });

  it('scrubs secrets from chat messages and never writes them to the log', async () => {
    const provider = new ScriptedProvider({
      turns: [
        { text: `the secret is ${APP_SECRET} and a key sk-proj-abcdefghijklmnopqrstuvwx1234` },
      ],
    });
    harness = await startHarness({ provider });
    const { messageId } = await harness.say('oc_a', 'ou_ann', 'leak it');
    await harness.feishu.waitFor(() => repliesTo(harness as Harness, messageId).length === 1);
    const answer = repliesTo(harness, messageId)[0]?.text ?? '';
    expect(answer).toContain('[redacted]');
    expect(answer).not.toContain(APP_SECRET);
    expect(answer).not.toContain('sk-proj-abcdefghijklmnopqrstuvwx1234');
    const everything = JSON.stringify([harness.logger.lines, harness.feishu.messages]);
    for (const secret of [APP_SECRET, ENCRYPT_KEY, VERIFICATION_TOKEN])
      expect(everything).not.toContain(secret);
  });
});
