import { createFailureTracker } from '../executor/loop-breaker.js';
import { executeBatch } from '../executor/tool-executor.js';
import { type Message, msg, type ToolCall } from '../messages.js';
import type { ToolChoice } from '../provider.js';
import type { SubagentHost } from '../tool.js';
import type { ToolMetadata } from '../tool-metadata.js';
import type { ToolRegistry } from '../tool-registry.js';
import type { ModeStrategy } from './mode-strategy.js';
import { type ModelTurnDeps, modelTurn } from './model-turn.js';
import type { RunState } from './run-state.js';
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
  /** Handed to the middlewares with every call (who asked for the run, …). */
  metadata: ToolMetadata;
  /** Lets each call start child runs nested under it. */
  subagents?: (toolCallId: string) => SubagentHost;
  /** False for a child run, which cannot stop to wait for a person. */
  pausable?: boolean;
}

/**
 * The ReAct loop: ask the model, run the tools it calls, feed the observations back, until it
 * answers without tool calls, the mode's strategy stops the run, or a limit is hit. It works on
 * `state` only (the history, the step count, the failure counts), so it can start from a fresh
 * state or from one read back from a checkpoint. Every tool call in the history gets exactly one
 * result, in the model's order.
 *
 * @example
 * const stop = await runLoop(state, deps);
 * if (stop.reason === 'final') console.log(stop.text);
 */
export async function runLoop(state: RunState, deps: LoopDeps): Promise<Stop> {
  const { strategy, events, signal } = deps;
  // Repeated identical failures are counted across the whole run, not per turn.
  const failures = createFailureTracker({ counts: state.failures });

  while (state.step < state.maxSteps) {
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
            text: loopText.emptyTurnsStop(state.emptyTurns),
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

    const outcome = await executeBatch(calls, {
      registry: deps.registry,
      runId: state.runId,
      step: state.step,
      workdir: state.session.workdir,
      session: state.session,
      signal,
      visibleTools: state.tools,
      maxParallel: deps.maxParallelTools,
      events,
      logger: deps.logger,
      metadata: deps.metadata,
      failureTracker: failures,
      ...(deps.subagents ? { subagents: deps.subagents } : {}),
      ...(deps.pausable === false ? { pausable: false } : {}),
    });
    if (outcome.suspended) {
      // The turn stays open: its answers so far wait with the calls until a decision resumes it.
      const { approvalId, checkpointId, content } = outcome.suspended;
      state.pending = { step: state.step, calls, observations: outcome.observations };
      return { reason: 'approval_required', text: content, approvalId, checkpointId };
    }
    state.messages.push(...outcome.observations);
    strategy.afterObservations(state, outcome.observations);
    if (outcome.loopBreaker) state.messages.push(outcome.loopBreaker);
    if (outcome.cancelled) return { reason: 'cancelled', text: loopText.cancelled };
  }
  return { reason: 'max_steps_exhausted', text: state.lastText };
}

/**
 * Answers for calls made in a phase that offers no tools: even refused calls get a result, so the
 * history stays valid for any provider.
 */
function refusedCalls(calls: readonly ToolCall[], phase: Phase): Message[] {
  return calls.map((call) =>
    msg.tool(call, loopText.toolsNotAllowed(phase), {
      is_error: true,
      error_type: 'tool_policy_blocked',
    }),
  );
}
