import type { Message } from '../messages.js';
import type { RunState } from './run-state.js';
import type { Phase } from './run-types.js';
import type { Stop } from './stop.js';

/**
 * How a mode shapes a run. The loop calls it at fixed points and never the other way round: when
 * the run opens (end it at once, or add messages after the prompt) or is reopened after a pause,
 * when the model answers without tool calls (stop, or go on with one more message), and after each
 * batch of observations.
 * Whatever it must remember between those points lives in the run state, so a paused run can be
 * continued in another process.
 *
 * @example
 * const act = actStrategy('act');
 * (await act.open(state)); // { messages: [] }
 */
export interface ModeStrategy {
  /** Before the first step: stop without calling the model, or the messages to add after the prompt. */
  open(state: RunState): Promise<{ stop: Stop } | { messages: Message[] }>;
  /** A run continued from a checkpoint (after a pause): pick up what `state` says it was doing. */
  reopen(state: RunState): Promise<void>;
  /** The phase of the step about to begin: `act` offers tools, `think` and `plan` do not. */
  phase(state: RunState): Phase;
  /** The model answered without tool calls (with text, or anything in a `plan` phase). */
  afterText(
    state: RunState,
    text: string,
    phase: Phase,
  ): Promise<{ stop: Stop } | { message: Message }>;
  /** The observations of one batch of tool calls, in the model's order. */
  afterObservations(state: RunState, observations: readonly Message[]): void;
  /** The session's PLAN.md for the run's result, once there is one (plan modes only). */
  planText(): string | undefined;
}

/**
 * The strategy of `act` (tools offered on every step) and `think` (never): the first answer
 * without tool calls is the final one.
 *
 * @example
 * const strategy = actStrategy('think');
 * strategy.phase(state); // 'think'
 */
export function actStrategy(phase: 'act' | 'think'): ModeStrategy {
  return {
    open: async () => ({ messages: [] }),
    reopen: async () => {},
    phase: () => phase,
    afterText: async (_state, text) => ({ stop: { reason: 'final', text } }),
    afterObservations: () => {},
    planText: () => undefined,
  };
}
