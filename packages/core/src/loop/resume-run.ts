import type { ClaimedApproval } from '../approval/approval-gate.js';
import { createFailureTracker } from '../executor/loop-breaker.js';
import { executeBatch } from '../executor/tool-executor.js';
import { type Message, msg, type ToolCall } from '../messages.js';
import { newRunId, runFrame } from './run-frame.js';
import { runLoop } from './run-loop.js';
import { type RunState, runStateSchema } from './run-state.js';
import type { RunResult } from './run-types.js';
import type { RunRequest, RunSetup } from './start-run.js';
import type { Stop } from './stop.js';
import { loopText } from './strings.js';

/**
 * Continue a paused run from a claimed decision, as a new run (its own id and trace, caller
 * `approval_resume`) over the checkpoint's state: the waiting call is executed through the full
 * middleware chain (approved) or answered with the rejection, the gate records the outcome, the
 * calls of the same assistant turn that had no answer yet run next (each may pause again), all the
 * turn's answers join the history in the model's order, and the loop goes on where it stopped.
 * Memory records the original prompt; tokens and cost count this run's model calls only.
 *
 * @example
 * const result = await resumeRun(setup, await gate.claim(id, decision), request);
 */
export function resumeRun(
  setup: RunSetup,
  claimed: ClaimedApproval,
  request: Omit<RunRequest, 'prompt' | 'session' | 'mode' | 'maxSteps' | 'caller'>,
): Promise<RunResult> {
  const gate = setup.approvals;
  if (!gate) throw new Error('resumeRun needs an approval gate');
  // A fresh copy through the schema: the checkpoint is data from disk, and this run must not
  // share objects with whoever holds the claim.
  const state: RunState = runStateSchema.parse(structuredClone(claimed.state));
  state.runId = newRunId();
  state.usage = null;
  state.costUsd = null;
  state.unpricedCall = false;
  const pending = state.pending;
  const waiting = pending?.calls.find((call) => call.id === claimed.callId);
  const full: RunRequest = {
    ...request,
    prompt: state.prompt,
    session: state.session,
    mode: state.mode,
    maxSteps: state.maxSteps,
    caller: 'approval_resume',
  };
  return runFrame(setup, state, full, async (frame) => {
    if (!pending || !waiting) {
      return {
        reason: 'approval_resume_failed',
        text: loopText.noWaitingCall(claimed.approvalId),
        memoryText: loopText.noWaitingCallMemory,
      };
    }
    delete state.pending;
    if (state.carry) setup.registry.restoreCarry(state.runId, state.carry);
    await frame.strategy.reopen(state);
    frame.events.emit({
      type: 'approval.resumed',
      runId: state.runId,
      approvalId: claimed.approvalId,
      checkpointId: claimed.checkpointId,
      decision: claimed.decision,
      actor: claimed.actor,
      waitMs: claimed.waitMs,
      call: waiting,
      ...(claimed.reason === undefined ? {} : { reason: claimed.reason }),
    });
    const position = (call: ToolCall) => pending.calls.findIndex((c) => c.id === call.id);
    const batch = {
      registry: setup.registry,
      runId: state.runId,
      step: pending.step,
      workdir: state.session.workdir,
      session: state.session,
      signal: request.signal,
      visibleTools: state.tools,
      maxParallel: setup.maxParallelTools,
      events: frame.events,
      logger: setup.logger,
      failureTracker: createFailureTracker({ counts: state.failures }),
      ...(frame.loop.subagents ? { subagents: frame.loop.subagents } : {}),
    };

    let answer: Message;
    if (claimed.decision === 'approve') {
      const ran = await executeBatch([waiting], {
        ...batch,
        positions: [position(waiting)],
        metadata: { ...frame.loop.metadata, ...claimed.metadata },
      });
      // The decision is spent whatever the call did: a second approval never runs it again.
      await gate.complete(claimed, 'consumed');
      answer = ran.observations[0] ?? cancelledAnswer(waiting);
    } else {
      answer = rejectionAnswer(waiting, position(waiting), claimed);
      frame.events.emit({
        type: 'tool.start',
        runId: state.runId,
        step: pending.step,
        call: waiting,
        index: position(waiting),
      });
      frame.events.emit({
        type: 'tool.end',
        runId: state.runId,
        step: pending.step,
        call: waiting,
        index: position(waiting),
        status: 'denied',
        output: { content: answer.content, isError: true, failure: { kind: 'denied' } },
        observation: { content: answer.content, isError: true, failure: { kind: 'denied' } },
        latencyMs: 0,
        blocked: false,
      });
      await gate.complete(claimed, 'rejected');
    }

    const answered = new Set([...pending.observations.map((m) => m.toolCallId), waiting.id]);
    const rest = pending.calls.filter((call) => !answered.has(call.id));
    const later = await executeBatch(rest, {
      ...batch,
      positions: rest.map(position),
      metadata: frame.loop.metadata,
    });
    const answers = [...pending.observations, answer, ...later.observations];
    if (later.suspended) {
      const { approvalId, checkpointId, content } = later.suspended;
      state.pending = { step: pending.step, calls: pending.calls, observations: answers };
      return {
        reason: 'approval_required',
        text: content,
        approvalId,
        checkpointId,
      } satisfies Stop;
    }
    const ordered = inTurnOrder(pending.calls, answers);
    state.messages.push(...ordered);
    frame.strategy.afterObservations(state, ordered);
    if (later.loopBreaker) state.messages.push(later.loopBreaker);
    if (later.cancelled || request.signal.aborted) {
      return { reason: 'cancelled', text: loopText.cancelled };
    }
    return runLoop(state, frame.loop);
  });
}

/** The answers of one turn in the order the model made the calls. */
function inTurnOrder(calls: readonly ToolCall[], answers: readonly Message[]): Message[] {
  const byCall = new Map(answers.map((answer) => [answer.toolCallId, answer]));
  return calls.flatMap((call) => {
    const answer = byCall.get(call.id);
    return answer ? [answer] : [];
  });
}

// The answer joins the history the model is sent and later checkpoints keep: it names who
// rejected the call and why, never the approval id.
function rejectionAnswer(call: ToolCall, index: number, claimed: ClaimedApproval): Message {
  return msg.tool(call, loopText.rejected(claimed.actor, claimed.reason), {
    is_error: true,
    error_type: 'approval_rejected',
    tool_call_index: index,
  });
}

function cancelledAnswer(call: ToolCall): Message {
  return msg.tool(call, loopText.cancelled, { is_error: true, error_type: 'cancelled' });
}
