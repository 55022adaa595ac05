import { errorMessage, type Logger, type SeenKeys } from '@tiny-claw/core';
import type { ChatAgent } from '../chat/chat-agent.js';
import { chatText } from '../chat/chat-text.js';
import { parseCardAction } from './card-action.js';
import type { FeishuEnvelope } from './event-envelope.js';
import { parseMessageEvent } from './message-event.js';

/** A message older than this (by its own create time) is dropped: it is a replay or a late retry. */
export const STALE_MESSAGE_MS = 30 * 60 * 1000;
/** An event older than this (by its header's create time) is past Feishu's retry window. */
export const STALE_EVENT_MS = 12 * 60 * 60 * 1000;
/** Feishu retries a delivery for about 7 hours; event and message ids are remembered for 12. */
export const SEEN_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * What the endpoint answers Feishu: a status and a JSON body.
 *
 * @example
 * const answer: EventAnswer = { status: 200, body: {} };
 */
export interface EventAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** Options of {@link EventRouter}. */
export interface EventRouterOptions {
  /** The state store's seen keys (`app.agent.store.seen`), kept across restarts by the file store. */
  seen: SeenKeys;
  chat: ChatAgent;
  logger: Logger;
  now?: () => number;
}

const ACK: EventAnswer = { status: 200, body: {} };

/**
 * Decides what to do with an authenticated event, quickly, and queues the work: Feishu counts a
 * delivery as failed unless it gets a 200 within 3 seconds, so nothing here waits for a run.
 * A message is dropped when it comes from a bot (this app included), repeats an event id or a
 * message id seen in the last 12 hours (the state store's seen keys: with the file store also
 * after a restart), or is more than 30 minutes old; otherwise it is queued and acknowledged. A
 * card click is de-duplicated by event id and answered with a toast. Other event types are
 * acknowledged and ignored.
 *
 * @example
 * const answer = await router.route(envelope);
 * return c.json(answer.body, answer.status);
 */
export class EventRouter {
  readonly #seen: SeenKeys;
  readonly #chat: ChatAgent;
  readonly #logger: Logger;
  readonly #now: () => number;

  constructor(options: EventRouterOptions) {
    this.#seen = options.seen;
    this.#chat = options.chat;
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
  }

  async route(envelope: Exclude<FeishuEnvelope, { kind: 'challenge' }>): Promise<EventAnswer> {
    if (envelope.kind === 'legacy') {
      this.#logger.info(`feishu: ignored a schema 1.0 ${envelope.eventType} event`);
      return ACK;
    }
    if (
      envelope.createTimeMs !== undefined &&
      this.#now() - envelope.createTimeMs > STALE_EVENT_MS
    ) {
      this.#logger.info(
        `feishu: dropped event ${envelope.eventId}: created more than 12 hours ago`,
      );
      return ACK;
    }
    if (envelope.eventType === 'im.message.receive_v1')
      return this.#message(envelope.eventId, envelope.event);
    if (envelope.eventType === 'card.action.trigger')
      return this.#cardAction(envelope.eventId, envelope.event);
    this.#logger.debug(`feishu: ignored a ${envelope.eventType} event`);
    return ACK;
  }

  async #message(eventId: string, event: Record<string, unknown>): Promise<EventAnswer> {
    const message = parseMessageEvent(eventId, event);
    if (!message) {
      this.#logger.info(`feishu: ignored event ${eventId}: not a readable message event`);
      return ACK;
    }
    if (message.senderType !== 'user') {
      this.#logger.debug(
        `feishu: ignored message ${message.messageId} from a ${message.senderType}`,
      );
      return ACK;
    }
    if (!(await this.#firstDelivery([`event:${eventId}`, `message:${message.messageId}`]))) {
      this.#logger.info(`feishu: ignored a repeated delivery of message ${message.messageId}`);
      return ACK;
    }
    if (
      message.createTimeMs !== undefined &&
      this.#now() - message.createTimeMs > STALE_MESSAGE_MS
    ) {
      this.#logger.info(
        `feishu: dropped message ${message.messageId}: sent more than 30 minutes ago`,
      );
      return ACK;
    }
    this.#chat.acceptMessage(message);
    return ACK;
  }

  async #cardAction(eventId: string, event: Record<string, unknown>): Promise<EventAnswer> {
    const click = parseCardAction(eventId, event);
    if (!click) {
      this.#logger.info(
        `feishu: ignored card action ${eventId}: not one of this server's approval buttons`,
      );
      return ACK;
    }
    if (!(await this.#firstDelivery([`event:${eventId}`]))) return ACK;
    this.#chat.acceptCardAction(click);
    return { status: 200, body: { toast: { type: 'info', content: chatText.cardDeciding } } };
  }

  /**
   * Whether this is the first delivery: each key is remembered for 12 hours, and a key seen before
   * makes it a repeat. The keys are remembered one after the other, stopping at the first one seen
   * before: concurrent deliveries of one event — to this process or to two replicas sharing the
   * store — cannot both be first, and one of them always is (were the keys remembered at once, each
   * delivery could win one key and lose the other, and the message would never run). The file store
   * writes the keys behind the answer, so the acknowledgement does not wait for the disk. A store
   * that fails is logged and the event handled: a lost message is worse than a rare repeat.
   */
  async #firstDelivery(keys: readonly string[]): Promise<boolean> {
    try {
      for (const key of keys) {
        if (!(await this.#seen.remember(key, SEEN_TTL_MS))) return false;
      }
      return true;
    } catch (error) {
      this.#logger.error(
        `feishu: could not check the event ids in the state store: ${errorMessage(error)}`,
      );
      return true;
    }
  }
}
