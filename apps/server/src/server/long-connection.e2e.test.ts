import { feishuCardActionEvent, feishuMessageEvent } from '@tiny-claw/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { GatedProvider, type Harness, startHarness } from '../__fixtures__/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('the long-connection mode', () => {
  it("receives events over the SDK's WebSocket client, answers at once, and replies through the open API", async () => {
    const provider = new GatedProvider((prompt) => `ws answer to ${prompt}`);
    harness = await startHarness({
      provider,
      noEncryptKey: true,
      noToken: true,
      env: { FEISHU_MODE: 'ws' },
    });
    const h = harness;
    await h.feishu.waitFor(() => h.feishu.connections() === 1, 'the long connection');

    const event = feishuMessageEvent({
      chatId: 'oc_ws',
      senderOpenId: 'ou_ann',
      text: 'over the socket',
    });
    h.feishu.knowMessage(event.event.message.message_id, 'oc_ws');
    // The answer to Feishu comes back while the model call is still held.
    expect(await h.feishu.push(event)).toEqual({ code: 200, data: {} });
    await provider.until(() => provider.active === 1);
    provider.release('over the socket');
    await h.feishu.waitFor(
      () => h.feishu.messages.some((m) => m.replyTo === event.event.message.message_id),
      'the reply',
    );
    expect(h.feishu.messages.find((m) => m.replyTo === event.event.message.message_id)?.text).toBe(
      'ws answer to over the socket',
    );

    // The same event again over the connection is acknowledged and not run twice.
    expect((await h.feishu.push(event)).code).toBe(200);
    const click = feishuCardActionEvent({
      chatId: 'oc_ws',
      operatorOpenId: 'ou_ann',
      messageId: 'om_card',
      value: {
        tiny_claw: 'approval',
        decision: 'approve',
        approval_id: 'ap_0bX3kR9d2Lqv',
        chat_id: 'oc_ws',
      },
    });
    expect(await h.feishu.push(click)).toEqual({
      code: 200,
      data: { toast: { type: 'info', content: 'Got it, deciding…' } },
    });
    await h.feishu.waitFor(
      () => h.feishu.messages.some((m) => m.replyTo === 'om_card'),
      'the refusal',
    );
    expect(h.feishu.messages.find((m) => m.replyTo === 'om_card')?.text).toMatch(
      /^Could not approve ap_0bX3kR9d2Lqv/,
    );
    expect(provider.started).toHaveLength(1);
  });
});
