/**
 * One piece of work for a chat: handling a message or a card click.
 *
 * @example
 * const task: ChatTask = { chatId: 'oc_1', replyTo: 'om_1', run: () => handle(message) };
 */
export interface ChatTask {
  chatId: string;
  /** The message a notice about this task replies to (when it must be dropped). */
  replyTo: string;
  run(): Promise<void>;
}

/** Options of {@link ChatQueue}. */
export interface ChatQueueOptions {
  /** Most tasks waiting in one chat. */
  maxPerChat?: number;
  /** Most tasks waiting in all chats together. */
  maxTotal?: number;
  /** Called with what a task threw (tasks are expected to handle their own errors). */
  onError?: (error: unknown, task: ChatTask) => void;
}

/**
 * Runs the work of each chat one task at a time, in arrival order, while different chats run at
 * the same time: two messages in one chat never run concurrently (they share a session), and a
 * slow chat does not hold up the others. Waiting work is bounded per chat and in total.
 *
 * @example
 * const queue = new ChatQueue();
 * if (!queue.push({ chatId, replyTo: messageId, run: () => answer(message) })) tellBusy();
 */
export class ChatQueue {
  readonly #maxPerChat: number;
  readonly #maxTotal: number;
  readonly #onError: (error: unknown, task: ChatTask) => void;
  readonly #waiting = new Map<string, ChatTask[]>();
  readonly #running = new Set<string>();
  #waitingCount = 0;
  #stopped = false;
  #idleWaiters: Array<() => void> = [];

  constructor(options: ChatQueueOptions = {}) {
    this.#maxPerChat = options.maxPerChat ?? 50;
    this.#maxTotal = options.maxTotal ?? 5000;
    this.#onError = options.onError ?? (() => {});
  }

  /** Chats with a task running now. */
  get running(): number {
    return this.#running.size;
  }

  /** Tasks waiting for their chat's current task to finish. */
  get waiting(): number {
    return this.#waitingCount;
  }

  /** Queue `task` behind its chat's earlier work; false (not queued) when the queue is full or stopped. */
  push(task: ChatTask): boolean {
    if (this.#stopped) return false;
    if (!this.#running.has(task.chatId)) {
      this.#start(task);
      return true;
    }
    const list = this.#waiting.get(task.chatId) ?? [];
    if (list.length >= this.#maxPerChat || this.#waitingCount >= this.#maxTotal) return false;
    list.push(task);
    this.#waiting.set(task.chatId, list);
    this.#waitingCount += 1;
    return true;
  }

  /** Start nothing new from now on, and hand back the tasks that were waiting (not started). */
  stop(): ChatTask[] {
    this.#stopped = true;
    const dropped = [...this.#waiting.values()].flat();
    this.#waiting.clear();
    this.#waitingCount = 0;
    this.#settleIdle();
    return dropped;
  }

  /** Resolves when no task is running and none is waiting. */
  idle(): Promise<void> {
    if (this.#running.size === 0 && this.#waitingCount === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #start(task: ChatTask): void {
    this.#running.add(task.chatId);
    const run = async () => {
      try {
        await task.run();
      } catch (error) {
        this.#onError(error, task);
      }
    };
    // Started on a later turn of the event loop, so whoever pushed (the webhook, about to answer
    // Feishu) is never held up by the first synchronous part of the work.
    setImmediate(() => {
      void run().then(() => this.#next(task.chatId));
    });
  }

  #next(chatId: string): void {
    const list = this.#waiting.get(chatId);
    const next = list?.shift();
    if (list && list.length === 0) this.#waiting.delete(chatId);
    if (next && !this.#stopped) {
      this.#waitingCount -= 1;
      this.#start(next);
      return;
    }
    this.#running.delete(chatId);
    this.#settleIdle();
  }

  #settleIdle(): void {
    if (this.#running.size > 0 || this.#waitingCount > 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
