import { performance } from 'node:perf_hooks';
import { type ChatLeaseOptions, holdingChatLease, takeChatLease } from './chat-lease.js';

/** Chats whose work runs at the same time; the others wait their turn, in arrival order. */
export const MAX_RUNNING_CHATS = 32;
/** Chats that always get to run, however busy the process is. */
export const MIN_RUNNING_CHATS = 2;
/** Event-loop utilisation above which no further chat starts (runs mostly wait on the model). */
const BUSY_UTILISATION = 0.75;
const BUSY_WINDOW_MS = 50;
const RETRY_START_MS = 10;

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
  /** Chats running work at the same time. */
  maxRunning?: number;
  /** Chats that start even while the process is busy. */
  minRunning?: number;
  /**
   * Whether the process is too busy to start more work now (default: the event loop was more than
   * 75 % busy over the last 50 ms). Waiting work is then started a moment later.
   */
  busy?: () => boolean;
  /** Most tasks waiting in one chat. */
  maxPerChat?: number;
  /** Most tasks waiting in all chats together. */
  maxTotal?: number;
  /** Called with what a task threw (tasks are expected to handle their own errors). */
  onError?: (error: unknown, task: ChatTask) => void;
  /**
   * Take the chat's lease in a shared state store before each task (and release it after), so a
   * chat's work runs one task at a time across every process sharing the store. Absent, the
   * queue keeps chats apart within this process only.
   */
  lease?: ChatLeaseOptions;
  /**
   * Told about a task dropped after {@link ChatQueue.stop} returned: one whose first try for its
   * chat's lease was under way then and found the lease held by another replica. The queue is
   * idle only once what it returns has settled.
   */
  onDropped?: (task: ChatTask) => Promise<void>;
}

/**
 * Runs the work of each chat one task at a time, in arrival order, while different chats run at
 * the same time: two messages in one chat never run concurrently (they share a session), and a
 * slow chat does not hold up the others. At most `maxRunning` chats run at once, and beyond
 * `minRunning` a chat starts only while the event loop has time to spare — runs mostly wait on the
 * model, but a burst of quick ones would otherwise starve the process, and with it the webhook's
 * acknowledgements. The rest wait in line, taking turns. Waiting work is bounded per chat and in
 * total. With `lease`, a task first takes its chat's lease (`chat:<chat id>`) in the state store,
 * renews it while it runs and releases it when done; while another replica holds it, the task
 * keeps its place (its chat counts as running) and the lease is tried again every `pollMs`, so
 * messages of one chat never run at the same time on two replicas, and a crashed replica's chat is
 * taken over once its lease expires.
 *
 * @example
 * const queue = new ChatQueue();
 * if (!queue.push({ chatId, replyTo: messageId, run: () => answer(message) })) tellBusy();
 */
export class ChatQueue {
  readonly #maxRunning: number;
  readonly #minRunning: number;
  readonly #busy: () => boolean;
  readonly #maxPerChat: number;
  readonly #maxTotal: number;
  readonly #onError: (error: unknown, task: ChatTask) => void;
  readonly #lease: ChatLeaseOptions | undefined;
  readonly #onDropped: (task: ChatTask) => Promise<void>;
  /**
   * Started tasks still waiting for their chat's lease, with what cancels the wait and whether
   * another holder was found to have it (only then does {@link stop} hand the task back).
   */
  readonly #awaitingLease = new Map<
    string,
    { task: ChatTask; cancel: () => void; blocked: boolean }
  >();
  /** Tasks not started, per chat, in arrival order. */
  readonly #waiting = new Map<string, ChatTask[]>();
  /** Chats with waiting work and no task running, in the order they get a turn. */
  readonly #ready: string[] = [];
  readonly #running = new Set<string>();
  #waitingCount = 0;
  #stopped = false;
  #idleWaiters: Array<() => void> = [];
  #retry: NodeJS.Timeout | undefined;

  constructor(options: ChatQueueOptions = {}) {
    this.#maxRunning = options.maxRunning ?? MAX_RUNNING_CHATS;
    this.#minRunning = options.minRunning ?? MIN_RUNNING_CHATS;
    this.#busy = options.busy ?? eventLoopBusy();
    this.#maxPerChat = options.maxPerChat ?? 50;
    this.#maxTotal = options.maxTotal ?? 5000;
    this.#onError = options.onError ?? (() => {});
    this.#lease = options.lease;
    this.#onDropped = options.onDropped ?? (async () => {});
  }

  /** Chats with a task running now. */
  get running(): number {
    return this.#running.size;
  }

  /** Tasks waiting for their turn. */
  get waiting(): number {
    return this.#waitingCount;
  }

  /** Queue `task` behind its chat's earlier work; false (not queued) when the queue is full or stopped. */
  push(task: ChatTask): boolean {
    if (this.#stopped) return false;
    const { chatId } = task;
    const list = this.#waiting.get(chatId) ?? [];
    if (
      !this.#running.has(chatId) &&
      list.length === 0 &&
      this.#ready.length === 0 &&
      this.#mayStart()
    ) {
      this.#start(task);
      return true;
    }
    if (list.length >= this.#maxPerChat || this.#waitingCount >= this.#maxTotal) return false;
    if (list.length === 0 && !this.#running.has(chatId)) this.#ready.push(chatId);
    list.push(task);
    this.#waiting.set(chatId, list);
    this.#waitingCount += 1;
    this.#startWaiting();
    return true;
  }

  /**
   * Start nothing new from now on, and hand back the tasks that were waiting (not started),
   * those waiting for a chat's lease another replica holds included. A task whose first try for
   * its lease is still under way goes on: it runs if it gets the lease, and is given to
   * `onDropped` if it does not.
   */
  stop(): ChatTask[] {
    this.#stopped = true;
    clearTimeout(this.#retry);
    const awaiting = [...this.#awaitingLease.values()].filter((entry) => entry.blocked);
    for (const entry of awaiting) {
      this.#awaitingLease.delete(entry.task.chatId);
      entry.cancel();
    }
    const dropped = [...awaiting.map((entry) => entry.task), ...[...this.#waiting.values()].flat()];
    this.#waiting.clear();
    this.#ready.length = 0;
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
        const lease = this.#lease;
        if (!lease) {
          await task.run();
          return;
        }
        let cancel: () => void = () => {};
        const cancelled = new Promise<void>((resolve) => {
          cancel = resolve;
        });
        const entry = { task, cancel, blocked: false };
        this.#awaitingLease.set(task.chatId, entry);
        const held = await takeChatLease(lease, task.chatId, cancelled, () => {
          entry.blocked = true;
          if (this.#stopped) cancel();
        });
        const handedBack = this.#awaitingLease.get(task.chatId) !== entry;
        if (!handedBack) this.#awaitingLease.delete(task.chatId);
        if (held) await holdingChatLease(lease, held, task.chatId, () => task.run());
        // No lease: the queue stopped, and either stop() handed the task back or it is dropped now.
        else if (!handedBack) await this.#onDropped(task);
      } catch (error) {
        this.#onError(error, task);
      }
    };
    // Started on a later turn of the event loop, so whoever pushed (the webhook, about to answer
    // Feishu) is never held up by the first synchronous part of the work.
    setImmediate(() => {
      void run().then(() => this.#finished(task.chatId));
    });
  }

  #finished(chatId: string): void {
    this.#running.delete(chatId);
    // The chat's next task goes to the back of the line: chats take turns.
    if (this.#waiting.has(chatId)) this.#ready.push(chatId);
    this.#startWaiting();
    this.#settleIdle();
  }

  #mayStart(): boolean {
    if (this.#running.size >= this.#maxRunning) return false;
    return this.#running.size < this.#minRunning || !this.#busy();
  }

  /** Start waiting chats while there is room; if only the load holds them back, look again soon. */
  #startWaiting(): void {
    while (!this.#stopped && this.#ready.length > 0 && this.#mayStart()) {
      const next = this.#ready.shift() as string;
      const list = this.#waiting.get(next) as ChatTask[];
      const task = list.shift() as ChatTask;
      if (list.length === 0) this.#waiting.delete(next);
      this.#waitingCount -= 1;
      this.#start(task);
    }
    const heldByLoad = this.#ready.length > 0 && this.#running.size < this.#maxRunning;
    if (heldByLoad && !this.#stopped && this.#retry === undefined) {
      this.#retry = setTimeout(() => {
        this.#retry = undefined;
        this.#startWaiting();
      }, RETRY_START_MS);
    }
  }

  #settleIdle(): void {
    if (this.#running.size > 0 || this.#waitingCount > 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** Whether the event loop was busy more than 75 % of the time over the last 50 ms or so. */
function eventLoopBusy(): () => boolean {
  let since = performance.eventLoopUtilization();
  let checkedAt = performance.now();
  let busy = false;
  return () => {
    const now = performance.now();
    if (now - checkedAt >= BUSY_WINDOW_MS) {
      const current = performance.eventLoopUtilization();
      busy = performance.eventLoopUtilization(current, since).utilization > BUSY_UTILISATION;
      since = current;
      checkedAt = now;
    }
    return busy;
  };
}
