import {
  type ApprovalDecision,
  ApprovalError,
  type ApprovalFailure,
  type ApprovalRecord,
  type ApprovalStores,
  type CheckpointRecord,
  type RunState,
  type SessionRef,
  StateError,
  type ToolCall,
} from '@tiny-claw/core';
import { checkRecordId } from '@tiny-claw/core/store';
import { normalizeSessionPart } from '@tiny-claw/core/utils';
import { currentClaimant } from '../store/claimant.js';
import { changedPath, preImage } from '../store/pre-image.js';
import { settleStaleClaim } from '../store/stale-claim.js';
import { toolCallHash } from '../store/tool-call-hash.js';
import { approvalText } from './approval-text.js';

/**
 * Who may decide a request. Default: anyone who can reach the session.
 *
 * @example
 * const canDecide: CanDecide = (actor, record) => actor !== record.requestedBy;
 */
export type CanDecide = (actor: string, record: ApprovalRecord) => boolean | Promise<boolean>;

/** What {@link claimApproval} works with. */
export interface ClaimDependencies {
  stores: ApprovalStores;
  clock: () => Date;
  canDecide: CanDecide;
}

/**
 * A decision that won the claim and passed every check: the request as now stored (`claimed`),
 * its checkpoint, and the waiting call as the checkpoint holds it.
 *
 * @example
 * const { call, checkpoint } = await claimApproval(deps, id, decision);
 */
export interface ClaimOutcome {
  record: ApprovalRecord;
  /** The paused run's state: the stored checkpoint's, or the one the caller gave. */
  state: RunState;
  call: ToolCall;
  waitMs: number;
}

/**
 * Check a decision in order and claim it: the id's format, that the request exists, that it
 * belongs to the session (and chat), that the actor may decide, that it is still pending, that it
 * has not expired (the expiry instant counts as expired). Then the one-time claim, so of any
 * number of concurrent decisions exactly one goes on; then, with the decision recorded, the
 * checkpoint must exist and hold the waiting call, the call must hash as it did at the request,
 * and for an approval the files it would change must be as they were. A failure after the claim
 * stores `failed` for good; an expired or failed request's checkpoint is deleted. Nothing runs
 * here.
 *
 * @throws ApprovalError with the refusal; StateError when the request's record is unreadable.
 *
 * @example
 * const outcome = await claimApproval(deps, 'ap_0bX3kR9d2LqvYw7aP1sT4g', { decision: 'approve', actor: 'cli:me', session });
 */
export async function claimApproval(
  deps: ClaimDependencies,
  approvalId: string,
  decision: ApprovalDecision & { session: SessionRef },
  given?: RunState,
): Promise<ClaimOutcome> {
  const { approvals } = deps.stores;
  const id = checkRecordId(approvalId);
  const sessionKey = decision.session.key;

  let record = await approvals.read(sessionKey, id);
  if (record === undefined) {
    const holder = await approvals.locate(id);
    if (holder === undefined) throw new ApprovalError('not_found', approvalText.notFound(id));
    throw new ApprovalError('wrong_session', approvalText.otherSession(id));
  }
  if (record.sessionKey !== sessionKey) {
    throw new ApprovalError('wrong_session', approvalText.otherSession(id));
  }
  if (record.id !== id) throw new ApprovalError('tampered', approvalText.mismatchedRecord(id));
  if (!sameChat(record.chatId, decision.origin)) {
    throw new ApprovalError('wrong_session', approvalText.otherChat(id));
  }
  if (!(await deps.canDecide(decision.actor, record))) {
    throw new ApprovalError('not_allowed', approvalText.notAllowed(decision.actor, id));
  }

  // Before anything is claimed: approving a call this agent cannot run would use the approval up
  // and answer the call with "unknown tool". A rejection runs nothing, so any agent may make it.
  if (
    decision.decision === 'approve' &&
    decision.runnableTools !== undefined &&
    !decision.runnableTools.includes(record.toolName)
  ) {
    throw new ApprovalError('tool_unavailable', approvalText.toolUnavailable(id, record.toolName));
  }

  // A state the caller holds is checked before the claim: a wrong one (another run's, an old
  // copy) is the caller's mistake and must not use the approval up.
  if (given !== undefined) {
    const problem =
      given.session.key !== sessionKey
        ? 'belongs to another session'
        : waitingCallProblem(given, record);
    if (problem !== undefined) {
      throw new ApprovalError('tampered', approvalText.givenStateMismatch(id, problem));
    }
  }

  record = await settleStaleClaim(approvals, record);
  if (record.status === 'expired') throw new ApprovalError('expired', approvalText.expired(record));
  if (record.status !== 'pending') {
    throw new ApprovalError('already_handled', approvalText.handled(record));
  }

  const now = deps.clock();
  const ticket = { ...currentClaimant(now), actor: decision.actor };
  const expired = now.getTime() >= Date.parse(record.expiresAt);
  // A clock earlier than the request cannot measure its age: fail closed rather than extend it.
  const clockBehind = now.getTime() < Date.parse(record.createdAt);
  if (expired || clockBehind) {
    if (!(await approvals.claim(sessionKey, id, { ...ticket, decision: 'expire' }))) {
      throw await lostClaim(deps, record);
    }
    await approvals.write({ ...record, status: 'expired', completedAt: now.toISOString() });
    await deps.stores.runStates.delete(sessionKey, record.checkpointId).catch(() => {});
    throw new ApprovalError(
      'expired',
      expired ? approvalText.expired(record) : approvalText.clockBehind(record),
    );
  }

  if (!(await approvals.claim(sessionKey, id, { ...ticket, decision: decision.decision }))) {
    throw await lostClaim(deps, record);
  }
  const { actor: _actor, ...claimedBy } = ticket;
  const claimed: ApprovalRecord = {
    ...record,
    status: 'claimed',
    decision: decision.decision,
    decidedBy: decision.actor,
    decidedAt: now.toISOString(),
    claimedBy,
  };
  if (decision.reason !== undefined) claimed.decisionReason = decision.reason;
  await approvals.write(claimed);

  // A failed request is never resumed, so its checkpoint goes with it (a changed one included:
  // the record keeps why it failed).
  const fail = async (failure: ApprovalFailure, message: string, cause?: unknown) => {
    await approvals.write({
      ...claimed,
      status: 'failed',
      failure,
      completedAt: now.toISOString(),
    });
    await deps.stores.runStates.delete(sessionKey, record.checkpointId).catch(() => {});
    return new ApprovalError(failure, message, cause === undefined ? {} : { cause });
  };

  let state: RunState;
  if (given !== undefined) {
    state = given;
  } else {
    let checkpoint: CheckpointRecord | undefined;
    try {
      checkpoint = await deps.stores.runStates.read(sessionKey, record.checkpointId);
    } catch (error) {
      if (!(error instanceof StateError) && !(error instanceof ApprovalError)) throw error;
      throw await fail(
        'checkpoint_missing',
        approvalText.checkpointMissing(id, error.message),
        error,
      );
    }
    if (checkpoint === undefined) {
      throw await fail(
        'checkpoint_missing',
        approvalText.checkpointMissing(id, `no checkpoint ${record.checkpointId}`),
      );
    }
    if (checkpoint.sessionKey !== sessionKey || checkpoint.state.session.key !== sessionKey) {
      throw await fail('checkpoint_missing', approvalText.checkpointOtherSession(id));
    }
    if (checkpoint.approvalId !== id) {
      throw await fail(
        'tampered',
        approvalText.tamperedCheckpoint(id, 'belongs to another request'),
      );
    }
    const problem = waitingCallProblem(checkpoint.state, record);
    if (problem !== undefined) {
      throw await fail('tampered', approvalText.tamperedCheckpoint(id, problem));
    }
    state = checkpoint.state;
  }
  const call = waitingCall(state, record) as ToolCall;
  if (
    toolCallHash({ name: record.toolName, arguments: record.arguments }, record.workdir) !==
    record.toolCallHash
  ) {
    throw await fail('tampered', approvalText.tamperedRecord(id));
  }
  if (
    call.argumentsError !== undefined ||
    toolCallHash(call, state.session.workdir) !== record.toolCallHash
  ) {
    throw await fail(
      'tampered',
      given === undefined
        ? approvalText.tamperedCheckpoint(id, 'holds a different tool call')
        : approvalText.givenStateMismatch(id, 'holds a different tool call'),
    );
  }
  if (decision.decision === 'approve') {
    const changed = changedPath(record.preImage, await preImage(call, state.session.workdir));
    if (changed !== undefined) throw await fail('drifted', approvalText.drifted(id, changed));
  }

  const waitMs = Math.max(0, now.getTime() - Date.parse(record.createdAt));
  return { record: claimed, state, call, waitMs };
}

/** The waiting call of `record` in the state's open turn, unanswered; undefined when there is none. */
function waitingCall(state: RunState, record: ApprovalRecord): ToolCall | undefined {
  const entry = state.batch?.calls.find((candidate) => candidate.call.id === record.toolCallId);
  if (!entry || entry.status === 'executed' || entry.observation !== undefined) return undefined;
  return entry.call;
}

/** What is wrong with the state's waiting call for `record`, or undefined when it is there. */
function waitingCallProblem(state: RunState, record: ApprovalRecord): string | undefined {
  const entry = state.batch?.calls.find((candidate) => candidate.call.id === record.toolCallId);
  if (!entry) return 'does not hold the waiting call';
  if (entry.status === 'executed' || entry.observation !== undefined) {
    return 'already answers the waiting call';
  }
  return undefined;
}

/** The refusal for a decision that lost the claim, naming the winner when that is known. */
async function lostClaim(deps: ClaimDependencies, record: ApprovalRecord): Promise<ApprovalError> {
  const { approvals } = deps.stores;
  const current = await approvals.read(record.sessionKey, record.id).catch(() => undefined);
  if (current && current.status !== 'pending') {
    if (current.status === 'expired')
      return new ApprovalError('expired', approvalText.expired(current));
    return new ApprovalError('already_handled', approvalText.handled(current));
  }
  const ticket = await approvals.ticket(record.sessionKey, record.id).catch(() => undefined);
  if (ticket?.decision === 'expire')
    return new ApprovalError('expired', approvalText.expired(record));
  return new ApprovalError('already_handled', approvalText.beingDecided(record.id, ticket));
}

/**
 * Origins (a chat's id, say) are compared only when both sides name one. A request recorded by an
 * earlier version holds the chat id as its session key has it (normalised), so that form matches
 * too.
 */
function sameChat(recorded: string | null, given: string | undefined): boolean {
  if (recorded === null || given === undefined) return true;
  return given === recorded || normalizeSessionPart(given) === recorded;
}
