import type { FailureTracker } from '../executor/loop-breaker.js';
import { type BatchOutcome, executeBatch } from '../executor/tool-executor.js';
import { type Message, msg } from '../messages.js';
import type { LoopDeps } from './run-loop.js';
import type { BatchCall, RunState } from './run-state.js';
import type { Stop } from './stop.js';
import { loopText } from './strings.js';

/**
 * Answer the calls of the open assistant turn (`state.batch`), whatever brought the run here: a
 * turn the model just made (every call `pending`) or a paused turn a decision continues (a call
 * `approved` or `rejected`). Decided calls go first — a rejection is answered with who rejected
 * it and why, an approved call runs with the gate's grant and its approval is then spent — then
 * the calls still `pending` run in the model's order, each of which may pause the run again.
 * Once every call is answered, the turn's observations join the history in the model's order and
 * the batch is closed. Returns the stop when the run pauses or is cancelled.
 *
 * @example
 * const stop = await answerBatch(state, deps, failures);
 * if (stop) return stop;
 */
export async function answerBatch(
  state: RunState,
  deps: LoopDeps,
  failures: FailureTracker,
): Promise<Stop | undefined> {
  const batch = state.batch;
  if (!batch) return undefined;
  const run = (entries: BatchCall[]): Promise<BatchOutcome> =>
    executeBatch(
      entries.map((entry) => entry.call),
      {
        registry: deps.registry,
        runId: state.runId,
        step: batch.step,
        workdir: state.session.workdir,
        session: state.session,
        signal: deps.signal,
        visibleTools: state.tools,
        maxParallel: deps.maxParallelTools,
        events: deps.events,
        logger: deps.logger,
        failureTracker: failures,
        positions: entries.map((entry) => entry.index),
        ...(deps.requestedBy === undefined ? {} : { requestedBy: deps.requestedBy }),
        ...(deps.origin === undefined ? {} : { origin: deps.origin }),
        ...(deps.grants ? { grants: deps.grants } : {}),
        ...(deps.subagents ? { subagents: deps.subagents } : {}),
        ...(deps.pausable === false ? { pausable: false } : {}),
      },
    );
  let loopBreaker: Message | undefined;
  let cancelled = false;
  const record = (entries: BatchCall[], outcome: BatchOutcome): void => {
    const answers = new Map(outcome.observations.map((m) => [m.toolCallId, m]));
    for (const entry of entries) {
      const observation = answers.get(entry.call.id);
      if (observation) settle(entry, observation);
    }
    loopBreaker ??= outcome.loopBreaker;
    cancelled ||= outcome.cancelled;
  };

  for (const entry of batch.calls.filter((e) => e.status === 'rejected')) {
    await rejectCall(state, entry, deps);
  }
  const approved = batch.calls.filter((e) => e.status === 'approved');
  if (approved.length > 0) {
    record(approved, await run(approved));
    // The decision is spent whatever the call did: a second approval never runs it again.
    for (const entry of approved) {
      entry.observation ??= cancelledAnswer(entry);
      entry.status = 'executed';
      await deps.onDecided?.(entry, 'consumed');
    }
  }

  const waiting = batch.calls.find((e) => e.status === 'awaiting_approval');
  if (waiting?.approval) return pausedAgain(waiting.approval);

  const pending = batch.calls.filter((e) => e.status === 'pending');
  if (pending.length > 0) {
    const outcome = await run(pending);
    record(pending, outcome);
    if (outcome.suspended) {
      const { callId, approvalId, checkpointId, content, request } = outcome.suspended;
      const entry = batch.calls.find((e) => e.call.id === callId);
      if (entry) {
        entry.status = 'awaiting_approval';
        entry.approval = { approvalId, checkpointId, reasons: request?.reasons ?? [] };
        if (request?.toolCallHash !== undefined) entry.approval.toolCallHash = request.toolCallHash;
        if (request?.preImage !== undefined) entry.approval.preImage = request.preImage;
        if (request?.expiresAt !== undefined) entry.approval.expiresAt = request.expiresAt;
      }
      return { reason: 'approval_required', text: content, approvalId, checkpointId };
    }
  }

  const observations = batch.calls.map((entry) => entry.observation ?? cancelledAnswer(entry));
  delete state.batch;
  state.messages.push(...observations);
  deps.strategy.afterObservations(state, observations);
  if (loopBreaker) state.messages.push(loopBreaker);
  if (cancelled || deps.signal.aborted) return { reason: 'cancelled', text: loopText.cancelled };
  return undefined;
}

function settle(entry: BatchCall, observation: Message): void {
  entry.observation = observation;
  entry.status = 'executed';
}

/** A call that still waits for a decision pauses the run again; no new request is made. */
function pausedAgain(approval: { approvalId: string; checkpointId: string }): Stop {
  return {
    reason: 'approval_required',
    text: loopText.stillWaiting(approval.approvalId),
    approvalId: approval.approvalId,
    checkpointId: approval.checkpointId,
  };
}

/**
 * Answer a rejected call without running it: the model is told who rejected it and why (never the
 * approval id), and watchers see the call start and end as denied.
 */
async function rejectCall(state: RunState, entry: BatchCall, deps: LoopDeps): Promise<void> {
  const { call, index } = entry;
  const step = state.batch?.step ?? state.step;
  const content = loopText.rejected(entry.decision?.actor ?? 'unknown', entry.decision?.reason);
  const output = { content, isError: true, failure: { kind: 'denied' as const } };
  deps.events.emit({ type: 'tool.start', runId: state.runId, step, call, index });
  deps.events.emit({
    type: 'tool.end',
    runId: state.runId,
    step,
    call,
    index,
    status: 'denied',
    output,
    observation: output,
    latencyMs: 0,
    blocked: false,
  });
  settle(entry, msg.tool(call, content, { isError: true, metadata: { tool_call_index: index } }));
  await deps.onDecided?.(entry, 'rejected');
}

function cancelledAnswer(entry: BatchCall): Message {
  return msg.tool(entry.call, loopText.cancelled, { isError: true });
}
