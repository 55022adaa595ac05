import { z } from 'zod';
import { feishuIdSchema } from './event-envelope.js';

const messageEventSchema = z.object({
  sender: z.object({
    sender_id: z.object({ open_id: feishuIdSchema }),
    sender_type: z.string().max(32),
  }),
  message: z.object({
    message_id: feishuIdSchema,
    chat_id: feishuIdSchema,
    chat_type: z.string().max(32).optional(),
    message_type: z.string().min(1).max(32),
    content: z.string().optional(),
    create_time: z
      .string()
      .regex(/^\d{1,16}$/)
      .optional(),
    mentions: z
      .array(z.object({ key: z.string().max(64) }))
      .max(200)
      .optional(),
  }),
});

/**
 * One chat message from an `im.message.receive_v1` event, as much as the server uses of it.
 *
 * @example
 * const message: InboundMessage = { eventId: 'ev_1', messageId: 'om_1', chatId: 'oc_1', senderOpenId: 'ou_1', senderType: 'user', messageType: 'text', content: '{"text":"hi"}', createTimeMs: 1700000000000, mentionKeys: [] };
 */
export interface InboundMessage {
  eventId: string;
  messageId: string;
  chatId: string;
  senderOpenId: string;
  /** `user` for a person; `app` (or anything else) for a bot, this one included. */
  senderType: string;
  messageType: string;
  /** The raw `content` JSON string, if the event carried one. */
  content: string | undefined;
  createTimeMs: number | undefined;
  /** The `@_user_N` placeholders the text contains for its mentions. */
  mentionKeys: string[];
}

/**
 * Read the message of an `im.message.receive_v1` event, or undefined when the event lacks what a
 * message needs (ids, sender, type).
 *
 * @example
 * const message = parseMessageEvent(envelope.eventId, envelope.event);
 */
export function parseMessageEvent(
  eventId: string,
  event: Record<string, unknown>,
): InboundMessage | undefined {
  const parsed = messageEventSchema.safeParse(event);
  if (!parsed.success) return undefined;
  const { sender, message } = parsed.data;
  return {
    eventId,
    messageId: message.message_id,
    chatId: message.chat_id,
    senderOpenId: sender.sender_id.open_id,
    senderType: sender.sender_type,
    messageType: message.message_type,
    content: message.content,
    createTimeMs: message.create_time === undefined ? undefined : Number(message.create_time),
    mentionKeys: (message.mentions ?? []).map((mention) => mention.key).filter((key) => key !== ''),
  };
}

const textContentSchema = z.object({ text: z.string() });
// Zero-width and BOM characters someone may paste along with an id.
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/g;
// Placeholders Feishu writes for mentions, also when the event lists none.
const PLACEHOLDER = /@_(?:user_\d+|all)\b/g;

/**
 * The text a person typed, from a text message's `content`: mention placeholders removed,
 * invisible characters dropped, a full-width `／` made `/`, whitespace trimmed. Undefined when the
 * content is not a text message's JSON (`{"text": "…"}`).
 *
 * @example
 * messageText('{"text":"@_user_1 ／approve ap_1"}', ['@_user_1']); // '/approve ap_1'
 */
export function messageText(
  content: string | undefined,
  mentionKeys: readonly string[],
): string | undefined {
  if (content === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    return undefined;
  }
  const parsed = textContentSchema.safeParse(json);
  if (!parsed.success) return undefined;
  let text = parsed.data.text;
  for (const key of mentionKeys) text = text.split(key).join(' ');
  return text
    .replace(PLACEHOLDER, ' ')
    .replace(INVISIBLE, '')
    .replace(/^[\s]*／/u, '/')
    .trim();
}
