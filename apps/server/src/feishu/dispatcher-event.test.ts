import * as lark from '@larksuiteoapi/node-sdk';
import { feishuCardActionEvent, feishuMessageEvent } from '@tiny-claw/testkit';
import { describe, expect, it } from 'vitest';
import { parseCardAction } from './card-action.js';
import { envelopeFromDispatcher } from './dispatcher-event.js';
import { parseMessageEvent } from './message-event.js';

/** What the SDK's dispatcher hands a handler for an event that came over the long connection. */
async function dispatched(event: unknown, type: string): Promise<unknown> {
  let received: unknown;
  const dispatcher = new lark.EventDispatcher({ loggerLevel: lark.LoggerLevel.error }).register({
    [type]: (data: unknown) => {
      received = data;
      return {};
    },
  });
  await dispatcher.invoke(event, { needCheck: false });
  return received;
}

describe('events from the long connection', () => {
  it('reads a message the SDK dispatcher flattened, like one from the webhook', async () => {
    const event = feishuMessageEvent({
      chatId: 'oc_a',
      senderOpenId: 'ou_ann',
      text: 'hi',
      eventId: 'ev_ws_1',
    });
    const envelope = envelopeFromDispatcher(
      await dispatched(event, 'im.message.receive_v1'),
      'im.message.receive_v1',
    );
    expect(envelope).toMatchObject({
      kind: 'event',
      eventId: 'ev_ws_1',
      eventType: 'im.message.receive_v1',
    });
    expect(parseMessageEvent('ev_ws_1', envelope?.event ?? {})).toMatchObject({
      chatId: 'oc_a',
      senderOpenId: 'ou_ann',
      messageId: event.event.message.message_id,
      messageType: 'text',
    });
  });

  it('reads a card click the SDK dispatcher flattened', async () => {
    const value = {
      tiny_claw: 'approval',
      decision: 'reject',
      approval_id: 'ap_0bX3kR9d2Lqv',
      chat_id: 'oc_a',
    };
    const click = feishuCardActionEvent({
      chatId: 'oc_a',
      operatorOpenId: 'ou_ann',
      messageId: 'om_card',
      value,
      eventId: 'ev_ws_2',
    });
    const envelope = envelopeFromDispatcher(
      await dispatched(click, 'card.action.trigger'),
      'card.action.trigger',
    );
    expect(parseCardAction('ev_ws_2', envelope?.event ?? {})).toEqual({
      eventId: 'ev_ws_2',
      operatorOpenId: 'ou_ann',
      chatId: 'oc_a',
      cardMessageId: 'om_card',
      value,
    });
  });

  it('ignores a delivery without a usable event id', () => {
    expect(
      envelopeFromDispatcher({ event_type: 'im.message.receive_v1' }, 'im.message.receive_v1'),
    ).toBeUndefined();
    expect(envelopeFromDispatcher({ event_id: '../x' }, 'im.message.receive_v1')).toBeUndefined();
    expect(envelopeFromDispatcher(null, 'im.message.receive_v1')).toBeUndefined();
  });
});
