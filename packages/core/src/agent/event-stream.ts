import type { RunEvent } from '../observe/run-events.js';

/**
 * The events of one run as an async iterable, fed by the run as it goes. The iterator ends after
 * `run.finish` of the run it was made for (events of nested runs pass through before it); if the
 * run throws, the iterator throws the same error once the events before it are consumed. Leaving
 * the loop early (`break`, `return`, a throw in the loop body) calls `onAbandon`, which cancels
 * the run.
 *
 * @example
 * const stream = new RunEventStream(() => controller.abort());
 * runAgent({ onEvent: (event) => stream.push(event) }).then(() => stream.end(), (error) => stream.fail(error));
 * for await (const event of stream) console.log(event.type);
 */
export class RunEventStream implements AsyncIterable<RunEvent> {
  readonly #queue: RunEvent[] = [];
  readonly #onAbandon: () => void;
  #wake: (() => void) | undefined;
  #done = false;
  #error: { value: unknown } | undefined;
  #iterating = false;
  #runId: string | undefined;
  #finished = false;

  constructor(onAbandon: () => void) {
    this.#onAbandon = onAbandon;
  }

  push(event: RunEvent): void {
    if (this.#done || this.#finished) return;
    const own = event.parentRunId === undefined;
    if (own && event.type === 'run.start' && this.#runId === undefined) this.#runId = event.runId;
    // Once the run's own finish is queued there is nothing left to cancel; a nested run's finish
    // (it carries `parentRunId`) is just another event.
    if (own && event.type === 'run.finish' && event.runId === this.#runId) this.#finished = true;
    this.#queue.push(event);
    this.#signal();
  }

  end(): void {
    this.#done = true;
    this.#signal();
  }

  fail(error: unknown): void {
    this.#error = { value: error };
    this.end();
  }

  [Symbol.asyncIterator](): AsyncIterator<RunEvent> {
    if (this.#iterating) throw new TypeError('a run event stream can be iterated only once');
    this.#iterating = true;
    return {
      next: async () => {
        for (;;) {
          const event = this.#queue.shift();
          if (event) return { value: event, done: false };
          if (this.#done) {
            if (this.#error) {
              const { value } = this.#error;
              this.#error = undefined;
              throw value;
            }
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => {
            this.#wake = resolve;
          });
        }
      },
      return: async () => {
        if (!this.#done && !this.#finished) this.#onAbandon();
        this.#done = true;
        this.#queue.length = 0;
        return { value: undefined, done: true };
      },
    };
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
