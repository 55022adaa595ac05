import type { InteractiveCard } from '@larksuiteoapi/node-sdk';
import type { MessageSender } from '../feishu/message-sender.js';

/** Most lines in one progress message; further lines are counted, not shown. */
export const MAX_PROGRESS_LINES = 12;

type Item =
  | { kind: 'progress'; lines: string[]; hidden: number }
  | { kind: 'text'; text: string; replyTo: string | undefined }
  | {
      kind: 'card';
      card: InteractiveCard;
      replyTo: string | undefined;
      done: (id: string | undefined) => void;
    }
  | { kind: 'patch'; messageId: string; card: InteractiveCard };

/**
 * The messages one piece of chat work sends, in order. Progress lines that arrive while an earlier
 * message is still being sent (or waits for the chat's rate limit) are gathered into one message,
 * so a fast run posts a few compact updates instead of one message per event — throttled by the
 * sending itself, with no timer.
 *
 * @example
 * const outbox = new ChatOutbox(sender, 'oc_team');
 * outbox.progress('[1/20] read(path: "a.txt")');
 * outbox.text('done', 'om_user');
 * await outbox.idle();
 */
export class ChatOutbox {
  readonly #sender: MessageSender;
  readonly #chatId: string;
  readonly #items: Item[] = [];
  #pumping: Promise<void> | undefined;

  constructor(sender: MessageSender, chatId: string) {
    this.#sender = sender;
    this.#chatId = chatId;
  }

  /** Add a progress line: joined to the progress message not yet sent, if there is one. */
  progress(line: string): void {
    const last = this.#items[this.#items.length - 1];
    if (last?.kind === 'progress') {
      if (last.lines.length < MAX_PROGRESS_LINES) last.lines.push(line);
      else last.hidden += 1;
    } else {
      this.#items.push({ kind: 'progress', lines: [line], hidden: 0 });
    }
    this.#pump();
  }

  /** Send a text (split when long), as a reply to `replyTo` when given. */
  text(text: string, replyTo?: string): void {
    this.#items.push({ kind: 'text', text, replyTo });
    this.#pump();
  }

  /** Send a card after everything queued before it; resolves to its message id. */
  card(card: InteractiveCard, replyTo?: string): Promise<string | undefined> {
    return new Promise((done) => {
      this.#items.push({ kind: 'card', card, replyTo, done });
      this.#pump();
    });
  }

  /** Replace a card sent earlier. */
  patch(messageId: string, card: InteractiveCard): void {
    this.#items.push({ kind: 'patch', messageId, card });
    this.#pump();
  }

  /** Resolves once everything queued so far has been sent (or given up on). */
  async idle(): Promise<void> {
    while (this.#pumping) await this.#pumping;
  }

  #pump(): void {
    if (this.#pumping) return;
    this.#pumping = (async () => {
      for (let item = this.#items.shift(); item; item = this.#items.shift()) await this.#send(item);
    })().finally(() => {
      this.#pumping = undefined;
      // Something may have been queued between the loop's last look and this moment.
      if (this.#items.length > 0) this.#pump();
    });
  }

  async #send(item: Item): Promise<void> {
    const chat = this.#chatId;
    switch (item.kind) {
      case 'progress': {
        const more = item.hidden > 0 ? [`… and ${item.hidden} more`] : [];
        await this.#sender.sendText(chat, [...item.lines, ...more].join('\n'));
        return;
      }
      case 'text':
        await this.#sender.sendText(
          chat,
          item.text,
          item.replyTo === undefined ? {} : { replyTo: item.replyTo },
        );
        return;
      case 'card':
        item.done(
          await this.#sender.sendCard(
            chat,
            item.card,
            item.replyTo === undefined ? {} : { replyTo: item.replyTo },
          ),
        );
        return;
      case 'patch':
        await this.#sender.patchCard(chat, item.messageId, item.card);
        return;
    }
  }
}
