import { randomUUID } from 'node:crypto';
import { EventBus } from '../observe/event-bus.js';
import { usageLines } from '../observe/usage-lines.js';
import { planActStrategy } from '../plan/plan-act-strategy.js';
import { memoryPlanFiles, PlanFileStore, type PlanStore } from '../plan/plan-files.js';
import { planModeStrategy } from '../plan/plan-mode-strategy.js';
import { isRunSession, noMemory } from '../session/run-session.js';
import type { RunMemory } from '../store/state-store.js';
import { actStrategy, type ModeStrategy } from './mode-strategy.js';
import type { LoopDeps } from './run-loop.js';
import { finishRun } from './run-result.js';
import type { RunState } from './run-state.js';
import type { RunMode, RunResult } from './run-types.js';
import type { RunRequest, RunSetup } from './start-run.js';
import type { Stop } from './stop.js';
import { subagentHosts } from './subagent-host.js';

/** What the body of a run works with. */
export interface RunFrame {
  events: EventBus;
  strategy: ModeStrategy;
  memory: RunMemory;
  /** Everything the step loop needs besides the state. */
  loop: LoopDeps;
}

/**
 * A new run id: 32 hex characters (also the trace id).
 *
 * @example
 * newRunId(); // '9f86d081884c7d659a2feaa0c55ad015'
 */
export function newRunId(): string {
  return randomUUID().replaceAll('-', '');
}

/**
 * What every run goes through, fresh or resumed: the event bus and its listeners, `run.start`,
 * the body (which ends in a stop), the checkpoint of a paused run, and the finish (memory, trace,
 * `run.finish`). An unexpected error still closes the trace before it propagates.
 *
 * @example
 * return runFrame(setup, state, request, (frame) => runLoop(state, frame.loop));
 */
export async function runFrame(
  setup: RunSetup,
  state: RunState,
  request: RunRequest,
  body: (frame: RunFrame) => Promise<Stop>,
): Promise<RunResult> {
  const { provider, store, tracer, logger } = setup;
  // A nested run's events are re-emitted on the calling run's bus, whose listeners (tracer, usage
  // lines, the agent's own) see them there: listening here too would count them twice.
  const nested = request.parent !== undefined;
  const events = new EventBus(
    [
      tracer && !nested ? (event) => tracer.onEvent(event) : undefined,
      store.usage && !nested ? usageLines(store.usage) : undefined,
      ...(nested ? [] : setup.listeners),
      ...request.listeners,
    ],
    logger,
  );
  const strategy = strategyFor(state.mode, setup, state);
  const frame: RunFrame = {
    events,
    strategy,
    // A run's own session (a run asked for without one) remembers nothing, nor do its children.
    memory:
      (request.remembers ?? !isRunSession(state.session)) ? store.memory(state.session) : noMemory,
    loop: {
      provider,
      registry: setup.registry,
      strategy,
      events,
      logger,
      signal: request.signal,
      compaction: setup.compaction,
      maxTokens: setup.maxTokens,
      prices: setup.prices,
      maxParallelTools: setup.maxParallelTools,
      ...(request.requestedBy === undefined ? {} : { requestedBy: request.requestedBy }),
      ...(request.origin === undefined ? {} : { origin: request.origin }),
    },
  };
  if (nested) frame.loop.pausable = false;
  frame.loop.subagents = subagentHosts(
    { setup, state, events, requestedBy: request.requestedBy, origin: request.origin },
    request.signal,
  );
  events.emit({
    type: 'run.start',
    runId: state.runId,
    session: state.session,
    mode: state.mode,
    maxSteps: state.maxSteps,
    provider: provider.name,
    model: state.model,
    prompt: state.prompt,
    caller: request.caller,
    ...(request.parent ? { parent: request.parent } : {}),
  });
  try {
    const bodyStop = await body(frame);
    // A child run's memory is its caller's business (it records the task and its own report).
    const stop = nested ? { ...bodyStop, remember: false } : bodyStop;
    if (stop.reason === 'approval_required') await keepPausedRun(setup, state, stop);
    return await finishRun(state, stop, {
      provider: provider.name,
      memory: frame.memory,
      tracer,
      traces: setup.store.traces,
      events,
      logger,
      plan: strategy.planText(),
    });
  } catch (error) {
    await tracer?.finishRun(state.runId, { error }).catch(() => undefined);
    await events.settled();
    throw error;
  }
}

function strategyFor(mode: RunMode, setup: RunSetup, state: RunState): ModeStrategy {
  switch (mode) {
    case 'act':
    case 'think':
      return actStrategy(mode);
    case 'plan':
      return planModeStrategy(plansOf(setup, state), setup.logger);
    case 'plan-act':
      return planActStrategy(plansOf(setup, state), setup.logger);
  }
}

/**
 * The plan files of the run's session; a run's own session keeps them inside the run (in memory,
 * gone with it), so the store holds nothing per unnamed run.
 */
function plansOf(setup: RunSetup, state: RunState): PlanStore {
  if (!isRunSession(state.session)) return setup.store.plans(state.session);
  return new PlanFileStore(memoryPlanFiles(`run:${state.runId}/plan`));
}

/**
 * A paused run is written down so a decision can continue it, possibly in another process: the
 * tools' per-run state goes into the run state, and the gate stores it under the checkpoint id
 * the approval middleware gave. Without a gate (a middleware of the caller's own paused the call)
 * the state is only handed to `run.finish` listeners.
 */
async function keepPausedRun(setup: RunSetup, state: RunState, stop: Stop): Promise<void> {
  const carry = setup.registry.saveCarry(state.runId);
  if (Object.keys(carry).length > 0) state.carry = carry;
  if (setup.approvals && stop.checkpointId !== undefined) {
    await setup.approvals.saveCheckpoint(stop.checkpointId, state);
  }
}
