import { errorMessage } from '../errors.js';
import type { Logger } from './logger.js';
import type { RunEvent, RunEventListener } from './run-events.js';

/**
 * Delivers one run's events to its listeners, in order and synchronously, so every listener sees
 * the same sequence as it happens. Listeners can never break the run: a throw or a rejected
 * promise is logged and swallowed. Promises listeners return are collected so the run can wait
 * for them (a usage line, a chat message) before it resolves.
 *
 * @example
 * const bus = new EventBus([terminal, usageLines], logger);
 * bus.emit({ type: 'text.delta', runId, step: 1, text: 'hi' });
 * await bus.settled();
 */
export class EventBus {
  readonly #listeners: RunEventListener[];
  readonly #logger: Logger;
  readonly #pending = new Set<Promise<void>>();

  constructor(listeners: readonly (RunEventListener | undefined)[], logger: Logger) {
    this.#listeners = listeners.filter((listener) => listener !== undefined);
    this.#logger = logger;
  }

  emit(event: RunEvent): void {
    for (const listener of this.#listeners) {
      let returned: void | Promise<void>;
      try {
        returned = listener(event);
      } catch (error) {
        this.#warn(event, error);
        continue;
      }
      if (returned && typeof returned.then === 'function') this.#track(event, returned);
    }
  }

  /** Resolves once every promise a listener returned so far has settled. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  #track(event: RunEvent, promise: Promise<void>): void {
    const tracked: Promise<void> = promise.then(
      () => {
        this.#pending.delete(tracked);
      },
      (error: unknown) => {
        this.#pending.delete(tracked);
        this.#warn(event, error);
      },
    );
    this.#pending.add(tracked);
  }

  #warn(event: RunEvent, error: unknown): void {
    this.#logger.warn(`run event listener failed event=${event.type} error=${errorMessage(error)}`);
  }
}
