import { randomBytes } from 'node:crypto';
import { encryptFeishuEvent, signFeishuRequest } from './crypto.js';

let counter = 0;
const nextId = (prefix: string) => {
  counter += 1;
  return `${prefix}${randomBytes(6).toString('hex')}${counter.toString(36)}`;
};

/** What a test says about one chat message; everything else gets a realistic default. */
export interface FeishuMessageInput {
  chatId: string;
  /** Open id of the sender (`ou_…`). */
  senderOpenId: string;
  /** The text as a person typed it, `@_user_1` placeholders included. */
  text?: string;
  /** Raw `message.content` (a JSON string), instead of `text`. */
  content?: string;
  messageType?: string;
  senderType?: string;
  chatType?: 'group' | 'p2p';
  messageId?: string;
  eventId?: string;
  /** Milliseconds since the epoch when the message was sent (default now). */
  createTime?: number;
  /** Verification token carried in `header.token`. */
  token?: string;
  appId?: string;
  mentions?: Array<{ key: string; openId: string; name: string }>;
}

/**
 * A v2 `im.message.receive_v1` event as Feishu pushes it (before encryption).
 *
 * @example
 * const event = feishuMessageEvent({ chatId: 'oc_team', senderOpenId: 'ou_ann', text: 'hello', token: 'vt' });
 */
export function feishuMessageEvent(input: FeishuMessageInput) {
  const now = input.createTime ?? Date.now();
  return {
    schema: '2.0',
    header: {
      event_id: input.eventId ?? nextId('ev_'),
      event_type: 'im.message.receive_v1',
      create_time: String(now),
      token: input.token ?? '',
      app_id: input.appId ?? 'cli_fake_app',
      tenant_key: 'fake-tenant',
    },
    event: {
      sender: {
        sender_id: { open_id: input.senderOpenId, union_id: `on_${input.senderOpenId}` },
        sender_type: input.senderType ?? 'user',
        tenant_key: 'fake-tenant',
      },
      message: {
        message_id: input.messageId ?? nextId('om_'),
        root_id: '',
        parent_id: '',
        create_time: String(now),
        update_time: String(now),
        chat_id: input.chatId,
        chat_type: input.chatType ?? 'group',
        message_type: input.messageType ?? 'text',
        content: input.content ?? JSON.stringify({ text: input.text ?? '' }),
        mentions: (input.mentions ?? []).map((mention) => ({
          key: mention.key,
          id: { open_id: mention.openId },
          name: mention.name,
          tenant_key: 'fake-tenant',
        })),
      },
    },
  };
}

/** What a test says about one click on an interactive card's button. */
export interface FeishuCardActionInput {
  chatId: string;
  /** Open id of the person who clicked. */
  operatorOpenId: string;
  /** The message id of the card that was clicked. */
  messageId: string;
  /** The button's `value`, as the card defined it. */
  value: Record<string, unknown>;
  eventId?: string;
  createTime?: number;
  token?: string;
}

/**
 * A v2 `card.action.trigger` callback: someone clicked a button on a card the app sent.
 *
 * @example
 * const click = feishuCardActionEvent({ chatId: 'oc_team', operatorOpenId: 'ou_ann', messageId: card.messageId, value: button.value, token: 'vt' });
 */
export function feishuCardActionEvent(input: FeishuCardActionInput) {
  return {
    schema: '2.0',
    header: {
      event_id: input.eventId ?? nextId('ev_'),
      event_type: 'card.action.trigger',
      create_time: String(input.createTime ?? Date.now()),
      token: input.token ?? '',
      app_id: 'cli_fake_app',
      tenant_key: 'fake-tenant',
    },
    event: {
      operator: { open_id: input.operatorOpenId, tenant_key: 'fake-tenant' },
      token: `c-${randomBytes(8).toString('hex')}`,
      action: { tag: 'button', value: input.value },
      host: 'im_message',
      context: { open_message_id: input.messageId, open_chat_id: input.chatId },
    },
  };
}

/**
 * The url_verification request Feishu sends when someone saves the event URL in the console.
 *
 * @example
 * const body = feishuChallenge('c-123', 'vt');
 */
export function feishuChallenge(challenge: string, token: string) {
  return { challenge, token, type: 'url_verification' };
}

/** How {@link feishuRequest} wraps an event. */
export interface FeishuRequestOptions {
  /** Encrypt the event and sign the body with this key, as Feishu does when one is configured. */
  encryptKey?: string;
  /** Send the plaintext event even though `encryptKey` is given (signed, but not encrypted). */
  plaintext?: boolean;
  /** Leave the signature headers out (Feishu's url_verification request carries none). */
  unsigned?: boolean;
  /** Pretty-print the JSON body (the signature still covers the exact bytes sent). */
  pretty?: boolean;
  timestamp?: string;
  nonce?: string;
}

/**
 * The body and headers of one event delivery: encrypted and signed over the exact bytes sent when
 * an encrypt key is given, plain JSON otherwise.
 *
 * @example
 * const { body, headers } = feishuRequest(feishuMessageEvent({ chatId: 'oc_1', senderOpenId: 'ou_1', text: 'hi' }), { encryptKey: 'key' });
 * await fetch(`${server.url}/api/events/feishu`, { method: 'POST', headers, body });
 */
export function feishuRequest(
  event: unknown,
  options: FeishuRequestOptions = {},
): { body: string; headers: Record<string, string> } {
  const payload =
    options.encryptKey && !options.plaintext
      ? { encrypt: encryptFeishuEvent(event, options.encryptKey) }
      : event;
  const body = options.pretty ? JSON.stringify(payload, null, 2) : JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (options.encryptKey && !options.unsigned) {
    Object.assign(
      headers,
      signFeishuRequest(body, options.encryptKey, {
        ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
        ...(options.nonce === undefined ? {} : { nonce: options.nonce }),
      }),
    );
  }
  return { body, headers };
}
