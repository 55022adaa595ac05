import { errorMessage } from '../errors.js';
import type { EventBus } from '../observe/event-bus.js';
import type { Logger } from '../observe/logger.js';
import type { Tracer } from '../observe/tracer.js';
import type { RunMemory } from '../store/state-store.js';
import type { TraceIndex } from '../store/trace-index.js';
import type { RunState } from './run-state.js';
import type { RunResult } from './run-types.js';
import { remembers, type Stop } from './stop.js';
import { loopText } from './strings.js';

/** What ending a run touches besides its state. */
export interface FinishDeps {
  provider: string;
  memory: RunMemory;
  tracer: Tracer | undefined;
  /** Where a trace the tracer wrote to a place (`tracePath`) is recorded. */
  traces: TraceIndex;
  events: EventBus;
  logger: Logger;
  /** The session's PLAN.md, in the plan modes once there is one. */
  plan: string | undefined;
}

/**
 * End a run: record it in the session memory (unless it was cancelled or failed), let the tracer
 * persist its trace and record where it went in the store's trace index, announce `run.finish`,
 * and wait for every listener's pending work (usage lines, chat messages) so nothing is still being
 * written when the result is returned. Memory and trace failures are logged; they never change the
 * result.
 *
 * @example
 * return finishRun(state, { reason: 'final', text: 'done' }, deps);
 */
export async function finishRun(state: RunState, stop: Stop, deps: FinishDeps): Promise<RunResult> {
  if (remembers(stop)) {
    await deps.memory
      .append([
        { key: 'last_prompt', value: state.prompt },
        { key: 'last_response', value: stop.memoryText ?? stop.text },
      ])
      .catch((error: unknown) => deps.logger.warn(loopText.memoryUnwritable(errorMessage(error))));
  }
  const result = runResult(state, stop, deps);
  const trace = deps.tracer
    ? await deps.tracer.finishRun(state.runId, { result }).catch((error: unknown) => {
        deps.logger.warn(loopText.traceUnwritable(errorMessage(error)));
        return undefined;
      })
    : undefined;
  if (trace?.tracePath !== undefined) {
    await deps.traces
      .record({ traceId: trace.traceId, sessionKey: state.session.key, path: trace.tracePath })
      .catch((error: unknown) => deps.logger.warn(loopText.traceUnindexed(errorMessage(error))));
  }
  const final: RunResult = {
    ...result,
    ...(trace ? { traceId: trace.traceId } : {}),
    ...(trace?.tracePath ? { tracePath: trace.tracePath } : {}),
    // A copy: whoever keeps the paused state must not see this run's later changes, nor share
    // objects with the listeners that get the state with `run.finish`.
    ...(stop.reason === 'approval_required' ? { state: structuredClone(state) } : {}),
  };
  deps.events.emit({ type: 'run.finish', runId: state.runId, result: final, state });
  await deps.events.settled();
  return final;
}

/** The result as `run --json` prints it; optional fields are absent rather than undefined. */
function runResult(state: RunState, stop: Stop, deps: FinishDeps): RunResult {
  return {
    runId: state.runId,
    sessionKey: state.session.key,
    workdir: state.session.workdir,
    text: stop.text,
    stopReason: stop.reason,
    ...(stop.error === undefined ? {} : { error: stop.error }),
    ...(stop.detail === undefined ? {} : { stopDetail: stop.detail }),
    steps: stop.steps ?? state.step,
    maxSteps: state.maxSteps,
    mode: state.mode,
    provider: deps.provider,
    model: state.model,
    usage: state.usage,
    ...(state.costUsd === null || state.unpricedCall ? {} : { costUsd: state.costUsd }),
    ...(deps.plan === undefined ? {} : { plan: deps.plan }),
    ...(stop.approvalId === undefined ? {} : { approvalId: stop.approvalId }),
    ...(stop.checkpointId === undefined ? {} : { checkpointId: stop.checkpointId }),
  };
}
