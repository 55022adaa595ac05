import { AsyncLocalStorage } from 'node:async_hooks';
import type { Phase, RunMode } from '../loop/run-types.js';
import type { SpanHandle } from './tracer.js';

/**
 * Who made a model call.
 *
 * @example
 * modelCallers.includes('subagent'); // → true
 */
export const modelCallers = ['main_loop', 'approval_resume', 'subagent'] as const;

/**
 * Who made a model call: the main loop, an approval resume, or a subagent.
 *
 * @example
 * const caller: ModelCaller = 'approval_resume';
 */
export type ModelCaller = (typeof modelCallers)[number];

/**
 * Where a model call happens. It travels next to the call (AsyncLocalStorage), never inside the
 * `LLMRequest`, so providers cannot leak it to a vendor and stay free of session concerns.
 *
 * @example
 * const scope: ModelCallScope = { sessionKey, runId, mode: 'explore', phase: 'act', step: 1, caller: 'subagent' };
 */
export interface ModelCallScope {
  readonly sessionKey: string;
  readonly runId: string;
  /** The run's mode; subagent calls use `explore`. */
  readonly mode: RunMode | 'explore';
  readonly phase: Phase;
  readonly step: number;
  readonly caller: ModelCaller;
  /** The span the call's `llm.call` span nests under (usually the `agent.step` span). */
  readonly parentSpan?: SpanHandle;
}

// Shared through a global symbol so a second copy of core in one process (duplicate installs)
// still sees the scope the loop set, like the error marker in errors.ts.
const storageKey = Symbol.for('tiny-claw.model-call-scope');
const holder = globalThis as { [storageKey]?: AsyncLocalStorage<ModelCallScope> };
holder[storageKey] ??= new AsyncLocalStorage<ModelCallScope>();
const storage: AsyncLocalStorage<ModelCallScope> = holder[storageKey];

/**
 * Run `fn` with `scope` as the current model-call scope; everything `fn` awaits sees it, and a
 * nested call replaces it only for its own duration (a subagent inside a tool call). The scope is
 * copied and frozen, so later changes to the caller's object do not leak into records.
 *
 * @example
 * const response = await withModelCallScope(
 *   { sessionKey, runId, mode: 'act', phase: 'act', step: 1, caller: 'main_loop', parentSpan: stepSpan },
 *   () => provider.complete(request),
 * );
 */
export function withModelCallScope<T>(scope: ModelCallScope, fn: () => T): T {
  return storage.run(Object.freeze({ ...scope }), fn);
}

/**
 * The scope set by the nearest enclosing {@link withModelCallScope}, or undefined outside one.
 *
 * @example
 * const scope = currentModelCallScope();
 * const sessionKey = scope?.sessionKey ?? null;
 */
export function currentModelCallScope(): ModelCallScope | undefined {
  return storage.getStore();
}
