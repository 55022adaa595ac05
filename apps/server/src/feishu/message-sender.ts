import { randomUUID } from 'node:crypto';
import type { InteractiveCard } from '@larksuiteoapi/node-sdk';
import type { Logger } from '@tiny-claw/core';
import { RateLimiter } from '../chat/rate-limiter.js';
import { splitMessage } from '../chat/split-message.js';
import { scrubServerText } from '../server/scrub-server-text.js';
import type { FeishuApi } from './feishu-api.js';
import { type FeishuApiError, toFeishuApiError } from './feishu-api-error.js';

/** Tries per message: the first send and two retries. */
export const SEND_ATTEMPTS = 3;
/** Longest wait honoured from a rate-limit reset header. */
const MAX_RESET_MS = 60_000;
/** First back-off after an unknown failure; each retry waits three times longer. */
const BACKOFF_BASE_MS = 500;

/** Options of {@link MessageSender}. */
export interface MessageSenderOptions {
  api: FeishuApi;
  logger: Logger;
  /** Values that must never reach a chat (app secret, keys, tokens); scrubbed from every text. */
  knownSecrets: readonly string[];
  limiter?: RateLimiter;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Sends chat messages the careful way: every text scrubbed of secrets and split into chunks that
 * keep code blocks whole; each send waits for the chat's rate limit; a rate-limited send (HTTP 429
 * or code 99991400) waits what `x-ogw-ratelimit-reset` says and a network or server failure backs
 * off (500 ms, then 1.5 s), three tries in all, each with the same `uuid` so Feishu sends a message
 * at most once; a send the API calls malformed is not retried. Failures are logged, never thrown:
 * a lost progress line must not fail a run.
 *
 * @example
 * const sender = new MessageSender({ api, logger, knownSecrets: [appSecret] });
 * await sender.sendText('oc_team', 'done', { replyTo: 'om_user' });
 */
export class MessageSender {
  readonly #api: FeishuApi;
  readonly #logger: Logger;
  readonly #secrets: readonly string[];
  readonly #limiter: RateLimiter;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: MessageSenderOptions) {
    this.#api = options.api;
    this.#logger = options.logger;
    this.#secrets = options.knownSecrets.filter((secret) => secret !== '');
    this.#limiter = options.limiter ?? new RateLimiter();
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Scrub `text` of anything secret (setting names stay): what every chat message goes through. */
  redact(text: string): string {
    return scrubServerText(text, this.#secrets);
  }

  /**
   * Send `text` to a chat, or as a reply to `replyTo`, in as many messages as its length needs.
   * Resolves to the ids of the messages sent.
   */
  async sendText(
    chatId: string,
    text: string,
    options: { replyTo?: string } = {},
  ): Promise<string[]> {
    const ids: string[] = [];
    for (const chunk of splitMessage(this.redact(text))) {
      const content = JSON.stringify({ text: chunk });
      const id = await this.#deliver(chatId, 'text', (uuid) =>
        options.replyTo === undefined
          ? this.#api.create(chatId, 'text', content, uuid)
          : this.#api.reply(options.replyTo, 'text', content, uuid),
      );
      if (id === undefined) break;
      ids.push(id);
    }
    return ids;
  }

  /** Send an interactive card (its texts already scrubbed); resolves to its message id. */
  sendCard(
    chatId: string,
    card: InteractiveCard,
    options: { replyTo?: string } = {},
  ): Promise<string | undefined> {
    const content = JSON.stringify(card);
    return this.#deliver(chatId, 'card', (uuid) =>
      options.replyTo === undefined
        ? this.#api.create(chatId, 'interactive', content, uuid)
        : this.#api.reply(options.replyTo, 'interactive', content, uuid),
    );
  }

  /** Replace a card this app sent; resolves to whether it worked. */
  async patchCard(chatId: string, messageId: string, card: InteractiveCard): Promise<boolean> {
    const content = JSON.stringify(card);
    const done = await this.#deliver(chatId, 'card update', async () => {
      await this.#api.patch(messageId, content);
      return messageId;
    });
    return done !== undefined;
  }

  async #deliver(
    chatId: string,
    what: string,
    send: (uuid: string) => Promise<string>,
  ): Promise<string | undefined> {
    // One uuid for every try: if a send went through but its answer was lost, the retry is a no-op.
    const uuid = randomUUID();
    for (let attempt = 1; ; attempt += 1) {
      await this.#limiter.take(chatId);
      let failure: FeishuApiError;
      try {
        return await send(uuid);
      } catch (error) {
        failure = toFeishuApiError(error);
      }
      const retryable = failure.kind === 'rate_limited' || failure.kind === 'unknown';
      if (!retryable || attempt >= SEND_ATTEMPTS) {
        this.#logger.warn(
          `feishu: could not send a ${what} to chat ${chatId} (${failure.kind}${retryable ? `, after ${attempt} tries` : ', not retried'}): ${this.redact(failure.message)}`,
        );
        return undefined;
      }
      const delay =
        failure.kind === 'rate_limited'
          ? Math.min(MAX_RESET_MS, failure.resetMs ?? 1000)
          : BACKOFF_BASE_MS * 3 ** (attempt - 1);
      this.#logger.info(
        `feishu: ${what} to chat ${chatId} ${failure.kind}; retrying in ${delay} ms`,
      );
      await this.#sleep(delay);
    }
  }
}
