import { type Message, msg } from '../messages.js';
import { type Logger, nullLogger } from '../observe/logger.js';
import type { PlanSnapshot, PlanStore } from './plan-files.js';
import { createPlanPrompt, executeTodoPrompt, replanPrompt } from './plan-prompts.js';
import { renderAllDone } from './plan-render.js';
import { planFilesFromResponse, revisedPlanFiles } from './plan-response.js';
import { planStepStatus, statusReason } from './plan-status.js';
import { collapseWhitespace, formatTodoItem, type TodoItem } from './todo-grammar.js';

/** How a plan-act run begins. */
export type PlanActStart =
  /** Every TODO item is checked: nothing to do, no model call. */
  | { kind: 'all_done'; text: string }
  /** No plan yet: append `message` (the create-plan prompt) and plan on the first step. */
  | { kind: 'plan'; message: Message }
  /** Append `message` (the execute prompt of the next open item) and act. */
  | { kind: 'execute'; message: Message };

/** What the loop does after the model answered the current TODO item without tool calls. */
export type TodoVerdict =
  /** Append `message` (the next item's prompt, or a replan request) and keep going. */
  | { kind: 'continue'; message: Message }
  | { kind: 'stop'; stopReason: 'final' | 'max_steps_exhausted' };

/** A failed tool call is named in a blocker, not pasted into it. */
const TOOL_ERROR_MAX_CHARS = 200;

/**
 * The plan-act bookkeeping of one run: which TODO item is current, whether a tool failed during
 * it, and what the model's `PLAN_STEP_STATUS:` verdict does to the plan files. The loop owns the
 * messages and the steps; this owns the plan.
 *
 * @example
 * const plan = new PlanActRun({ store, prompt });
 * const start = await plan.start();
 * if (start.kind !== 'all_done') messages.push(start.message);
 */
export class PlanActRun {
  readonly #store: PlanStore;
  readonly #prompt: string;
  readonly #logger: Logger;
  #snapshot: PlanSnapshot | undefined;
  #current: TodoItem | undefined;
  #planning: 'create' | 'replan' | undefined;
  #toolError: string | undefined;

  constructor(options: { store: PlanStore; prompt: string; logger?: Logger }) {
    this.#store = options.store;
    this.#prompt = options.prompt;
    this.#logger = options.logger ?? nullLogger;
  }

  /** The plan being executed, once there is one. */
  get snapshot(): PlanSnapshot | undefined {
    return this.#snapshot;
  }

  /** The item being executed, if any. */
  get current(): TodoItem | undefined {
    return this.#current;
  }

  /** Set while the next step must write (`create`) or revise (`replan`) the plan. */
  get planning(): 'create' | 'replan' | undefined {
    return this.#planning;
  }

  /** Read the plan files and decide how the run begins. */
  async start(): Promise<PlanActStart> {
    const snapshot = await this.#store.read();
    if (!snapshot) {
      this.#planning = 'create';
      return { kind: 'plan', message: msg.system(createPlanPrompt()) };
    }
    this.#snapshot = snapshot;
    const message = this.beginNext();
    return message
      ? { kind: 'execute', message }
      : { kind: 'all_done', text: renderAllDone(snapshot) };
  }

  /**
   * Store the plan from a planning reply: create the missing files, or on a replan overwrite them
   * keeping completed items (a reply without either document keeps the current plan).
   */
  async applyPlan(text: string): Promise<PlanSnapshot> {
    const previous = this.#planning === 'replan' ? this.#snapshot : undefined;
    this.#planning = undefined;
    if (previous) {
      const revised = revisedPlanFiles(previous, text);
      if (!revised) {
        this.#logger.warn('plan revision had no <PLAN_MD> or <TODO_MD>; the current plan is kept');
        return previous;
      }
      this.#snapshot = await this.#store.replace(revised);
      this.#logger.info(
        `plan revised dir=${this.#snapshot.dir} todos=${this.#snapshot.items.length}`,
      );
      return this.#snapshot;
    }
    this.#snapshot = await this.#store.createMissing(planFilesFromResponse(text, this.#prompt));
    this.#logger.info(
      `plan created dir=${this.#snapshot.dir} todos=${this.#snapshot.items.length}`,
    );
    return this.#snapshot;
  }

  /** Make the next open item current; its execute prompt, or undefined when all are done. */
  beginNext(): Message | undefined {
    const snapshot = this.#snapshot;
    const next = snapshot?.next;
    this.#current = next;
    this.#toolError = undefined;
    if (!snapshot || !next) return undefined;
    this.#logger.info(`plan todo started ${formatTodoItem(next)}`);
    return msg.user(executeTodoPrompt(snapshot, next));
  }

  /** Remember the latest failed tool call of the current item (it vetoes `completed`). */
  noteObservations(observations: readonly Message[]): void {
    if (!this.#current) return;
    for (const observation of observations) {
      if (observation.metadata?.is_error !== true) continue;
      const firstLine = collapseWhitespace(observation.content.split('\n', 1)[0] ?? '');
      const detail = `${observation.name ?? 'tool'}: ${firstLine}`;
      this.#toolError =
        detail.length > TOOL_ERROR_MAX_CHARS
          ? `${detail.slice(0, TOOL_ERROR_MAX_CHARS - 1)}…`
          : detail;
    }
  }

  /**
   * Act on the model's final reply for the current item. `completed` (with no tool error during the
   * item) checks it and moves on while `stepsLeft`; `blocked`, or `completed` after a tool error,
   * records a blocker and stops; `needs_replan` asks for a revised plan when a step is left.
   */
  async settle(text: string, options: { stepsLeft: boolean }): Promise<TodoVerdict> {
    const item = this.#current;
    const snapshot = this.#snapshot;
    if (!item || !snapshot) return { kind: 'stop', stopReason: 'final' };
    const status = planStepStatus(text);
    if (status === 'completed' && this.#toolError === undefined) {
      this.#snapshot = await this.#store.markDone(item.id);
      this.#current = undefined;
      this.#logger.info(`plan todo completed ${item.id}`);
      const message = options.stepsLeft ? this.beginNext() : undefined;
      return message ? { kind: 'continue', message } : { kind: 'stop', stopReason: 'final' };
    }
    if (status === 'blocked' || status === 'completed') {
      const reason = statusReason(text, status === 'completed' ? this.#toolError : undefined);
      this.#snapshot = await this.#store.appendBlocker(item.id, reason);
      this.#logger.info(`plan todo blocked ${item.id} reason=${reason}`);
      return { kind: 'stop', stopReason: 'final' };
    }
    if (status === 'needs_replan') {
      // No step left to plan in: the item stays open and the next run asks again.
      if (!options.stepsLeft) return { kind: 'stop', stopReason: 'max_steps_exhausted' };
      this.#planning = 'replan';
      this.#current = undefined;
      this.#logger.info(`plan replan requested by ${item.id}`);
      return {
        kind: 'continue',
        message: msg.user(replanPrompt(snapshot, item, statusReason(text))),
      };
    }
    return { kind: 'stop', stopReason: 'final' };
  }
}
