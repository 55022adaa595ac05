import {
  ApprovalError,
  type ApprovalRecord,
  type ApprovalRequiredEvent,
  describeRunError,
  type Logger,
  type RunEventListener,
  type RunMode,
  type RunResult,
  TinyClawError,
} from '@tiny-claw/core';
import {
  type RememberScope as AlwaysScope,
  type Application,
  describeRule,
  type PermissionRule,
  userRulesFile,
} from '@tiny-claw/runtime';
import type { CardAction } from '../feishu/card-action.js';
import type { InboundMessage } from '../feishu/message-event.js';
import { messageText } from '../feishu/message-event.js';
import type { MessageSender } from '../feishu/message-sender.js';
import { type ApprovalCardInput, approvalCard, decidedCard } from './approval-card.js';
import { parseApprovalCommand } from './approval-command.js';
import type { ChatLeaseOptions } from './chat-lease.js';
import { ChatOutbox } from './chat-outbox.js';
import { ChatQueue, type ChatTask } from './chat-queue.js';
import { chatSession } from './chat-session.js';
import { chatText } from './chat-text.js';
import { runLog } from './run-log.js';
import { runProgress } from './run-progress.js';

/** Cards remembered for updating after a decision typed as a command; the oldest go first. */
const MAX_REMEMBERED_CARDS = 1000;

/** Options of {@link ChatAgent}. */
export interface ChatAgentOptions {
  app: Application;
  sender: MessageSender;
  logger: Logger;
  mode: RunMode;
  maxSteps: number;
  /** Aborted when the server gives up waiting for running work at shutdown. */
  signal: AbortSignal;
  /**
   * Hold each chat's lease in the state store while its work runs, so chats run one piece of
   * work at a time across replicas sharing the store (see {@link ChatQueue}).
   */
  lease?: ChatLeaseOptions;
  queue?: ChatQueue;
}

/** What an "always" answer keeps once its decision is claimed. */
interface AlwaysPlan {
  scope: AlwaysScope;
  record: ApprovalRecord;
  /** Null when no rule could stop the next identical request. */
  rules: PermissionRule[] | null;
}

/** A decision, from a typed command or a card's button. */
interface Decision {
  chatId: string;
  actor: string;
  approvalId: string;
  decision: 'approve' | 'reject';
  reason?: string;
  /** An approval kept for the chat's session or in the user's rules for the project. */
  always?: AlwaysScope;
  /** The message the outcome replies to: the command, or the card. */
  replyTo: string;
}

/**
 * The agent as a chat sees it. Each chat is one session (`feishu-<workdir hash>-chat-<chat id>`);
 * its messages are handled one at a time in arrival order, while chats run side by side. A text
 * message runs the agent, with progress posted in the chat and the answer as a reply; a paused call
 * becomes an approval card; with `lease`, the one-at-a-time rule holds across every replica sharing
 * the state store; `/approve <id>` and `/reject <id> <reason>` (or the card's buttons)
 * decide through the application, which accepts a decision only from the run's requester or an
 * approver, and only in the chat the request came from — every refusal is said in the chat. Other
 * message types get a polite "text only" reply.
 *
 * @example
 * const chat = new ChatAgent({ app, sender, logger, mode: 'act', maxSteps: 20, signal });
 * chat.acceptMessage(message); // queued; returns at once
 */
export class ChatAgent {
  readonly #options: ChatAgentOptions;
  readonly #queue: ChatQueue;
  readonly #cards = new Map<string, { messageId: string; input: ApprovalCardInput }>();

  constructor(options: ChatAgentOptions) {
    this.#options = options;
    this.#queue =
      options.queue ??
      new ChatQueue({
        onError: (error, task) =>
          options.logger.error(`feishu: work for chat ${task.chatId} failed: ${describe(error)}`),
        ...(options.lease ? { lease: options.lease } : {}),
        onDropped: async (task) => {
          await options.sender.sendText(task.chatId, chatText.restarting, {
            replyTo: task.replyTo,
          });
        },
      });
  }

  /** Chats with work running now. */
  get running(): number {
    return this.#queue.running;
  }

  /** Pieces of work waiting behind their chat's current one. */
  get waiting(): number {
    return this.#queue.waiting;
  }

  /** Queue the handling of one chat message; returns at once. */
  acceptMessage(message: InboundMessage): void {
    this.#push({
      chatId: message.chatId,
      replyTo: message.messageId,
      run: () => this.#handleMessage(message),
    });
  }

  /** Queue a click on an approval card's button; returns at once. */
  acceptCardAction(click: CardAction): void {
    this.#push({
      chatId: click.chatId,
      replyTo: click.cardMessageId,
      run: () =>
        this.#decide({
          chatId: click.chatId,
          actor: click.operatorOpenId,
          approvalId: click.value.approval_id,
          decision: click.value.decision,
          ...(click.value.always === undefined ? {} : { always: click.value.always }),
          replyTo: click.cardMessageId,
        }),
    });
  }

  /** Start nothing new; the work that was waiting is handed back (not started). */
  stop(): ChatTask[] {
    return this.#queue.stop();
  }

  /** Resolves when no work is running or waiting. */
  idle(): Promise<void> {
    return this.#queue.idle();
  }

  #push(task: ChatTask): void {
    if (this.#queue.push(task)) return;
    this.#options.logger.warn(
      `feishu: chat ${task.chatId} has too much work waiting; a message was turned away`,
    );
    void this.#options.sender.sendText(task.chatId, chatText.busy, { replyTo: task.replyTo });
  }

  async #handleMessage(message: InboundMessage): Promise<void> {
    const { sender, logger } = this.#options;
    if (message.messageType !== 'text') {
      await sender.sendText(message.chatId, chatText.textOnly, { replyTo: message.messageId });
      return;
    }
    const text = messageText(message.content, message.mentionKeys);
    if (text === undefined) {
      logger.info(
        `feishu: ignored message ${message.messageId}: its content is not a text message's`,
      );
      return;
    }
    if (text === '') return;
    const command = parseApprovalCommand(text);
    if (command?.kind === 'malformed') {
      await sender.sendText(message.chatId, chatText.commandUsage(command.decision), {
        replyTo: message.messageId,
      });
      return;
    }
    if (command) {
      await this.#decide({
        chatId: message.chatId,
        actor: message.senderOpenId,
        approvalId: command.approvalId,
        decision: command.decision,
        ...(command.reason === undefined ? {} : { reason: command.reason }),
        replyTo: message.messageId,
      });
      return;
    }
    await this.#run(message, text);
  }

  async #run(message: InboundMessage, prompt: string): Promise<void> {
    const { app, mode, maxSteps, signal } = this.#options;
    const outbox = new ChatOutbox(this.#options.sender, message.chatId);
    const posted = new Set<string>();
    const progress = runProgress({
      line: (line) => outbox.progress(line),
      approvalRequired: async (event) => {
        if (await this.#postCard(event, message.chatId, outbox, message.messageId))
          posted.add(event.approvalId);
      },
    });
    const onEvent = logged(
      progress,
      runLog(this.#options.logger, { chatId: message.chatId, messageId: message.messageId }),
    );
    let result: RunResult;
    try {
      const session = await chatSession(app.settings.workdir, message.chatId);
      result = await app.run({
        prompt,
        session,
        mode,
        maxSteps,
        requestedBy: message.senderOpenId,
        origin: message.chatId,
        onEvent,
        signal,
      });
    } catch (error) {
      this.#options.logger.warn(
        `feishu: run for chat ${message.chatId} failed: ${describe(error)}`,
        { chat_id: message.chatId, message_id: message.messageId },
      );
      outbox.text(chatText.failed(describe(error)), message.messageId);
      await outbox.idle();
      return;
    }
    this.#finish(result, outbox, message.messageId, posted);
    await outbox.idle();
  }

  async #decide(decision: Decision): Promise<void> {
    const { app, sender, signal } = this.#options;
    const outbox = new ChatOutbox(sender, decision.chatId);
    if (app.approvalProvider !== 'feishu') {
      outbox.text(chatText.approvalsOff, decision.replyTo);
      await outbox.idle();
      return;
    }
    const posted = new Set<string>();
    const always = await this.#alwaysRules(decision);
    let kept: Promise<void> | undefined;
    const progress = runProgress({
      line: (line) => outbox.progress(line),
      resumed: (event) => {
        // Kept only once the decision is claimed (a refused one keeps nothing), before the run
        // goes on to its next call.
        if (always !== undefined && event.decision === 'approve')
          kept = this.#keepAlways(always, decision, outbox);
        outbox.text(
          chatText.decided(event.decision, event.approvalId, event.actor),
          decision.replyTo,
        );
        const card = this.#cards.get(event.approvalId);
        if (card) {
          outbox.patch(
            card.messageId,
            decidedCard(card.input, event, (text) => sender.redact(text)),
          );
          this.#cards.delete(event.approvalId);
        }
      },
      approvalRequired: async (event) => {
        if (await this.#postCard(event, decision.chatId, outbox, decision.replyTo))
          posted.add(event.approvalId);
      },
    });
    const onEvent = logged(
      progress,
      runLog(this.#options.logger, { chatId: decision.chatId, messageId: decision.replyTo }),
    );
    let result: RunResult;
    try {
      const session = await chatSession(app.settings.workdir, decision.chatId);
      result = await app.resumeApproval(decision.approvalId, {
        decision: decision.decision,
        actor: decision.actor,
        session,
        origin: decision.chatId,
        ...(decision.reason === undefined ? {} : { reason: decision.reason }),
        onEvent,
        signal,
      });
    } catch (error) {
      outbox.text(refusalText(decision, error), decision.replyTo);
      const fields = {
        chat_id: decision.chatId,
        approval_id: decision.approvalId,
        decision: decision.decision === 'approve' ? 'approved' : 'rejected',
        decided_by: decision.actor,
      };
      if (error instanceof ApprovalError) {
        this.#options.logger.info('approval decision refused', {
          ...fields,
          refusal: error.refusal,
        });
      } else {
        this.#options.logger.warn(
          `feishu: deciding ${decision.approvalId} failed: ${describe(error)}`,
          fields,
        );
      }
      await outbox.idle();
      return;
    }
    await kept;
    this.#finish(result, outbox, decision.replyTo, posted);
    await outbox.idle();
  }

  /**
   * Read what an "always" answer would keep, before the decision is claimed (nothing is kept
   * yet), so that the rules can be kept the moment the claim succeeds.
   */
  async #alwaysRules(decision: Decision): Promise<AlwaysPlan | undefined> {
    if (decision.always === undefined || decision.decision !== 'approve') return undefined;
    const { app } = this.#options;
    const record = await app.approval(decision.approvalId).catch(() => undefined);
    if (!record) return undefined;
    const proposal = await app
      .proposeAlways(record, decision.always)
      .catch(() => ({ rules: null }));
    return { scope: decision.always, record, rules: proposal.rules };
  }

  /** Keep an "always" answer's rules, and say in the chat what was kept. */
  #keepAlways(plan: AlwaysPlan, decision: Decision, outbox: ChatOutbox): Promise<void> {
    const { app, logger } = this.#options;
    if (!plan.rules) {
      outbox.text(chatText.notKept(decision.approvalId), decision.replyTo);
      return Promise.resolve();
    }
    // The session's rules count from this call on; a project rule counts here at once too.
    return app
      .keepAlways(plan.record, plan.scope, plan.rules)
      .then(({ file, added }) => {
        outbox.text(chatText.kept(plan.scope, added.map(describeRule), file), decision.replyTo);
      })
      .catch((error: unknown) => {
        logger.warn(
          `feishu: keeping the rule of ${decision.approvalId} failed: ${describe(error)}`,
        );
        outbox.text(chatText.keepFailed(describe(error)), decision.replyTo);
      });
  }

  /** Post the approval card for a paused call; false when it could not be sent. */
  async #postCard(
    event: ApprovalRequiredEvent,
    chatId: string,
    outbox: ChatOutbox,
    replyTo: string,
  ): Promise<boolean> {
    const { app, sender, logger } = this.#options;
    const record = await app.approval(event.approvalId).catch((error: unknown) => {
      logger.warn(`feishu: could not read approval ${event.approvalId}: ${describe(error)}`);
      return undefined;
    });
    const sessionKey = record?.sessionKey ?? (await chatSession(app.settings.workdir, chatId)).key;
    const input: ApprovalCardInput = {
      approvalId: event.approvalId,
      chatId,
      sessionKey,
      workdir: app.settings.workdir,
      toolName: event.call.name,
      reasons: record?.riskReasons ?? [],
      arguments: event.call.arguments,
      expiresAt: record?.expiresAt ?? 'unknown',
      requestedBy: record?.requestedBy ?? 'unknown',
      ...(record ? { always: await alwaysOffer(app, record) } : {}),
    };
    const id = await outbox.card(
      approvalCard(input, (text) => sender.redact(text)),
      replyTo,
    );
    if (id === undefined) return false;
    this.#cards.set(event.approvalId, { messageId: id, input });
    if (this.#cards.size > MAX_REMEMBERED_CARDS) {
      const oldest = this.#cards.keys().next().value;
      if (oldest !== undefined) this.#cards.delete(oldest);
    }
    return true;
  }

  #finish(
    result: RunResult,
    outbox: ChatOutbox,
    replyTo: string,
    posted: ReadonlySet<string>,
  ): void {
    switch (result.stopReason) {
      case 'final':
        outbox.text(result.text.trim() === '' ? chatText.emptyAnswer : result.text, replyTo);
        return;
      case 'approval_required':
        // The card is the answer; without one, say how to decide in words.
        if (result.approvalId !== undefined && !posted.has(result.approvalId)) {
          outbox.text(
            chatText.waitingForApproval(
              result.approvalId,
              result.sessionKey,
              this.#options.app.settings.workdir,
            ),
            replyTo,
          );
        }
        return;
      default: {
        // A cancelled run's own text only repeats that it was cancelled; a failed run says what
        // failed (its text is only what the model said before).
        const text =
          result.stopReason === 'cancelled'
            ? ''
            : result.error
              ? describeRunError(result.error)
              : result.text.trim();
        const parts = [chatText.stopped(result.stopReason, result.steps), text];
        outbox.text(parts.filter((part) => part !== '').join('\n\n'), replyTo);
      }
    }
  }
}

/** What each "always" button would keep, for the card; a button without rules is not offered. */
async function alwaysOffer(
  app: Application,
  record: ApprovalRecord,
): Promise<NonNullable<ApprovalCardInput['always']>> {
  const [session, project] = await Promise.all([
    app.proposeAlways(record, 'session').catch(() => ({ rules: null })),
    app.proposeAlways(record, 'project').catch(() => ({ rules: null })),
  ]);
  return {
    ...(session.rules ? { session: session.rules.map(describeRule) } : {}),
    ...(project.rules
      ? { project: { file: userRulesFile(app.settings), rules: project.rules.map(describeRule) } }
      : {}),
  };
}

/** The chat's progress listener, with the run's log lines written first (they never throw). */
function logged(progress: RunEventListener, log: RunEventListener): RunEventListener {
  return (event) => {
    void log(event);
    return progress(event);
  };
}

function refusalText(decision: Decision, error: unknown): string {
  if (error instanceof ApprovalError && error.refusal === 'not_allowed') {
    return chatText.notAllowed(decision.approvalId);
  }
  return chatText.refused(decision.decision, decision.approvalId, describe(error));
}

function describe(error: unknown): string {
  if (TinyClawError.isInstance(error)) return error.message;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
