import { z } from 'zod';
import { feishuIdSchema } from './event-envelope.js';

/** The `value` this server puts on an approval card's buttons. */
export const approvalButtonValueSchema = z.object({
  tiny_claw: z.literal('approval'),
  decision: z.enum(['approve', 'reject']),
  /** An approval that is also kept: for the chat's session, or in the user's rules for the project. */
  always: z.enum(['session', 'project']).optional(),
  approval_id: z.string().min(1).max(128),
  chat_id: feishuIdSchema,
});

/**
 * The value of one approval button.
 *
 * @example
 * const value: ApprovalButtonValue = { tiny_claw: 'approval', decision: 'approve', approval_id: 'ap_…', chat_id: 'oc_1' };
 */
export type ApprovalButtonValue = z.infer<typeof approvalButtonValueSchema>;

const cardActionSchema = z.object({
  operator: z.object({ open_id: feishuIdSchema }),
  action: z.object({ value: z.unknown() }),
  context: z.object({ open_message_id: feishuIdSchema, open_chat_id: feishuIdSchema }),
});

/**
 * A click on an approval card's button: who clicked, in which chat, on which card.
 *
 * @example
 * const click: CardAction = { eventId: 'ev_1', operatorOpenId: 'ou_1', chatId: 'oc_1', cardMessageId: 'om_1', value };
 */
export interface CardAction {
  eventId: string;
  operatorOpenId: string;
  chatId: string;
  cardMessageId: string;
  value: ApprovalButtonValue;
}

/**
 * Read a `card.action.trigger` callback, or undefined when it is not a click on one of this
 * server's approval buttons.
 *
 * @example
 * const click = parseCardAction(envelope.eventId, envelope.event);
 */
export function parseCardAction(
  eventId: string,
  event: Record<string, unknown>,
): CardAction | undefined {
  const parsed = cardActionSchema.safeParse(event);
  if (!parsed.success) return undefined;
  const value = approvalButtonValueSchema.safeParse(parsed.data.action.value);
  if (!value.success) return undefined;
  return {
    eventId,
    operatorOpenId: parsed.data.operator.open_id,
    chatId: parsed.data.context.open_chat_id,
    cardMessageId: parsed.data.context.open_message_id,
    value: value.data,
  };
}
