import type { ApprovalGrant } from '../approval/approval-gate.js';
import { createFailureTracker } from '../executor/loop-breaker.js';
import { type Message, msg, type ToolCall } from '../messages.js';
import type { ToolChoice } from '../provider.js';
import type { SubagentHost } from '../tool.js';
import type { ToolRegistry } from '../tool-registry.js';
import { answerBatch } from './answer-batch.js';
import type { ModeStrategy } from './mode-strategy.js';
import { type ModelTurnDeps, modelTurn } from './model-turn.js';
import type { BatchCall, RunState } from './run-state.js';
import type { Phase } from './run-types.js';
import type { Stop } from './stop.js';
import { loopText } from './strings.js';

/** A model that keeps answering with nothing is stopped after this many empty turns in a row. */
export const MAX_EMPTY_TURNS = 3;

/** What the step loop runs with, besides the run state. */
export interface LoopDeps extends ModelTurnDeps {
  registry: ToolRegistry;
  strategy: ModeStrategy;
  /** Cap on concurrently running parallel-safe tool calls. */
  maxParallelTools: number;
  /** Who asked for the run, handed to the middlewares with every call. */
  requestedBy?: string;
  /** Where the run was asked for (opaque), handed to the middlewares with every call. */
  origin?: string;
  /** Lets each call start child runs nested under it. */
  subagents?: (toolCallId: string) => SubagentHost;
  /** False for a child run, which cannot stop to wait for a person. */
  pausable?: boolean;
  /** The approval gate's grants for the calls a person approved, by call id. */
  grants?: ReadonlyMap<string, ApprovalGrant>;
  /** A decided call was answered: its approval is spent (`consumed`) or its rejection told. */
  onDecided?: (entry: BatchCall, outcome: 'consumed' | 'rejected') => Promise<void>;
}

/**
 * The ReAct loop: answer the open turn's calls if there is one, then ask the model, run the
 * tools it calls, feed the observations back, until it answers without tool calls, the mode's
 * strategy stops the run, a call pauses for a decision, or a limit is hit. It works on `state`
 * only (the history, the open batch, the step count, the failure counts), so a fresh run and a
 * run continued after a decision are the same loop over different states. Every tool call in
 * the history gets exactly one result, in the model's order.
 *
 * @example
 * const stop = await runLoop(state, deps);
 * if (stop.reason === 'final') console.log(stop.text);
 */
export async function runLoop(state: RunState, deps: LoopDeps): Promise<Stop> {
  const { strategy, events, signal } = deps;
  // Repeated identical failures are counted across the whole run, not per turn.
  const failures = createFailureTracker({ counts: state.failures });

  for (;;) {
    if (state.batch) {
      const stop = await answerBatch(state, deps, failures);
      if (stop) return stop;
    }
    if (state.step >= state.maxSteps) break;
    if (signal.aborted) return { reason: 'cancelled', text: loopText.cancelled };
    state.step += 1;
    const phase = strategy.phase(state);
    const toolChoice: ToolChoice = phase === 'act' ? 'auto' : 'none';
    const offered = toolChoice === 'auto' ? deps.registry.definitions(state.tools) : [];
    events.emit({
      type: 'step.start',
      runId: state.runId,
      step: state.step,
      maxSteps: state.maxSteps,
      phase,
      toolChoice,
      tools: offered.map((tool) => tool.name),
      messageCount: state.messages.length,
    });

    const turn = await modelTurn(state, deps, { tools: offered, toolChoice });
    if ('stop' in turn) return turn.stop;
    const calls = turn.message.toolCalls ?? [];

    if (calls.length === 0) {
      // A planning reply is the plan, even an empty one; anywhere else nothing at all is a stall.
      if (phase !== 'plan' && turn.message.content.trim() === '') {
        state.emptyTurns += 1;
        if (state.emptyTurns >= MAX_EMPTY_TURNS) {
          return {
            reason: 'provider_error',
            detail: 'empty_turns',
            text: '',
            error: {
              kind: 'empty_turns',
              message: loopText.emptyTurnsStop(state.emptyTurns),
              retryable: false,
            },
          };
        }
        state.messages.push(msg.user(loopText.emptyTurnNudge));
        continue;
      }
      state.emptyTurns = 0;
      const next = await strategy.afterText(state, turn.message.content, phase);
      if ('stop' in next) return next.stop;
      state.messages.push(next.message);
      continue;
    }
    state.emptyTurns = 0;

    if (toolChoice === 'none') {
      state.messages.push(...refusedCalls(calls, phase));
      return { reason: 'tool_policy_blocked', text: turn.message.content };
    }
    // The turn stays open until every call is answered; a pause keeps it open in the state.
    state.batch = {
      step: state.step,
      calls: calls.map((call, index) => ({ call, index, status: 'pending' })),
    };
  }
  return { reason: 'max_steps_exhausted', text: state.lastText };
}

/**
 * Answers for calls made in a phase that offers no tools: even refused calls get a result, so the
 * history stays valid for any provider.
 */
function refusedCalls(calls: readonly ToolCall[], phase: Phase): Message[] {
  return calls.map((call) => msg.tool(call, loopText.toolsNotAllowed(phase), { isError: true }));
}
