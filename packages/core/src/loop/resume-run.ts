import type { ApprovalGrant, ClaimedApproval } from '../approval/approval-gate.js';
import { newRunId, runFrame } from './run-frame.js';
import { runLoop } from './run-loop.js';
import type { BatchCall } from './run-state.js';
import { type RunState, runStateSchema } from './run-state.js';
import type { RunResult } from './run-types.js';
import type { RunRequest, RunSetup } from './start-run.js';
import { loopText } from './strings.js';

/**
 * Continue a paused run from claimed decisions, as a new run (its own id and trace, caller
 * `approval_resume`): the decisions are recorded on their calls in the restored state, and the
 * loop goes on from there — the same loop a fresh run enters, which answers the open turn first.
 * Memory records the original prompt; tokens and cost count this run's model calls only.
 *
 * @example
 * const result = await resumeRun(setup, [await gate.claim(id, decision)], request);
 */
export function resumeRun(
  setup: RunSetup,
  claims: readonly ClaimedApproval[],
  request: Omit<RunRequest, 'prompt' | 'session' | 'mode' | 'maxSteps' | 'caller'>,
): Promise<RunResult> {
  const gate = setup.approvals;
  const first = claims[0];
  if (!gate || !first) throw new Error('resumeRun needs an approval gate and a claimed decision');
  // A fresh copy through the schema: the state is data from disk or from a caller, and this run
  // must not share objects with whoever holds the claim.
  const state: RunState = runStateSchema.parse(structuredClone(first.state));
  state.runId = newRunId();
  state.usage = null;
  state.costUsd = null;
  state.unpricedCall = false;
  const full: RunRequest = {
    ...request,
    prompt: state.prompt,
    session: state.session,
    mode: state.mode,
    maxSteps: state.maxSteps,
    caller: 'approval_resume',
  };
  return runFrame(setup, state, full, async (frame) => {
    const decided = claims.map((claimed) => ({ claimed, entry: waitingCall(state, claimed) }));
    const missing = decided.find((d) => d.entry === undefined);
    if (missing) {
      return {
        reason: 'approval_resume_failed',
        text: loopText.noWaitingCall(missing.claimed.approvalId),
        memoryText: loopText.noWaitingCallMemory,
      };
    }
    const grants = new Map<string, ApprovalGrant>();
    const byCall = new Map<string, ClaimedApproval>();
    for (const { claimed, entry } of decided) {
      if (entry) record(entry, claimed, grants, byCall);
    }
    if (state.carry) setup.registry.restoreCarry(state.runId, state.carry);
    await frame.strategy.reopen(state);
    for (const { claimed, entry } of decided) {
      frame.events.emit({
        type: 'approval.resumed',
        runId: state.runId,
        approvalId: claimed.approvalId,
        checkpointId: claimed.checkpointId,
        decision: claimed.decision,
        actor: claimed.actor,
        waitMs: claimed.waitMs,
        call: (entry as BatchCall).call,
        ...(claimed.reason === undefined ? {} : { reason: claimed.reason }),
      });
    }
    frame.loop.grants = grants;
    frame.loop.onDecided = async (entry, outcome) => {
      const claimed = byCall.get(entry.call.id);
      if (claimed) await gate.complete(claimed, outcome);
    };
    return runLoop(state, frame.loop);
  });
}

/** The open call a claimed decision is for: unanswered, in the state's batch. */
function waitingCall(state: RunState, claimed: ClaimedApproval): BatchCall | undefined {
  return state.batch?.calls.find(
    (entry) =>
      entry.call.id === claimed.callId &&
      (entry.status === 'awaiting_approval' || entry.status === 'pending'),
  );
}

/** Write the decision on its call, and keep what the loop needs to honour it. */
function record(
  entry: BatchCall,
  claimed: ClaimedApproval,
  grants: Map<string, ApprovalGrant>,
  byCall: Map<string, ClaimedApproval>,
): void {
  const approve = claimed.decision === 'approve';
  entry.status = approve ? 'approved' : 'rejected';
  entry.approval ??= {
    approvalId: claimed.approvalId,
    checkpointId: claimed.checkpointId,
    reasons: [],
  };
  entry.decision = {
    approve,
    actor: claimed.actor,
    waitMs: claimed.waitMs,
    ...(claimed.reason === undefined ? {} : { reason: claimed.reason }),
  };
  if (approve && claimed.grant) grants.set(entry.call.id, claimed.grant);
  byCall.set(entry.call.id, claimed);
}
