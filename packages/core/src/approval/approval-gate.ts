import { TinyClawError } from '../errors.js';
import type { RunState } from '../loop/run-state.js';
import type { SessionRef } from '../session/session-ref.js';
import type { ToolMiddleware } from '../tool.js';

/**
 * A person's decision on a paused tool call.
 *
 * @example
 * const decision: ApprovalDecision = { decision: 'reject', actor: 'cli:alice', reason: 'not on main' };
 */
export interface ApprovalDecision {
  decision: 'approve' | 'reject';
  /** Who decided, as the front end knows them: `cli:<user>`, a chat user's open id. */
  actor: string;
  /** Why (a rejection's reason reaches the model). */
  reason?: string;
  /**
   * Where the decision came from, as the front end names it (a chat's id, say): a request made
   * from one origin is decided only from the same one. Opaque to core.
   */
  origin?: string;
  /**
   * The tools the deciding agent can run. An approval of a call to any other tool is refused
   * (`tool_unavailable`) before it is claimed: claiming it would use it up without running the
   * call. Undefined: not checked.
   */
  runnableTools?: readonly string[];
}

/**
 * The pass an approval gate issues for a claimed approval: the run hands it to the middlewares
 * with exactly the approved call. Only the gate that issued it knows what it grants, so a grant
 * cannot be forged or replayed.
 *
 * @example
 * const ctx = { ...base, approval: claimed.grant };
 */
export interface ApprovalGrant {
  approvalId: string;
  token: string;
}

/**
 * What a claimed decision lets the agent continue from: the run state at the pause and the call
 * that waited. Only the one claimant of an approval ever holds this.
 *
 * @example
 * const call = claimed.state.batch?.calls.find((entry) => entry.call.id === claimed.callId)?.call;
 */
export interface ClaimedApproval {
  approvalId: string;
  checkpointId: string;
  decision: 'approve' | 'reject';
  actor: string;
  reason?: string;
  /** The paused run's state (stored, or the caller's); its open `batch` holds the waiting call. */
  state: RunState;
  /** Id of the waiting call in `state.batch.calls`. */
  callId: string;
  /**
   * Handed to the middlewares with the approved call, so the approval middleware lets exactly
   * that call through (every other middleware, the policy included, still runs). Absent for a
   * rejection, which runs nothing.
   */
  grant?: ApprovalGrant;
  /** Milliseconds between the request and the decision. */
  waitMs: number;
}

/**
 * Why a decision was refused. Checked in this order: a malformed id, an unknown one, another
 * session's (or chat's), an actor who may not decide, a request already handled, an expired one,
 * and then, for an approval, a checkpoint that is missing or was changed, or a file that changed
 * since the request.
 *
 * @example
 * if (error instanceof ApprovalError && error.refusal === 'expired') console.log('ask again');
 */
export const approvalRefusals = [
  'invalid_id',
  'not_found',
  'wrong_session',
  'not_allowed',
  'already_handled',
  'expired',
  'checkpoint_missing',
  'tampered',
  'drifted',
  'tool_unavailable',
] as const;

/**
 * One of {@link approvalRefusals}.
 *
 * @example
 * const refusal: ApprovalRefusal = 'already_handled';
 */
export type ApprovalRefusal = (typeof approvalRefusals)[number];

/**
 * A decision that was refused, with the reason as a typed code and a message that says why.
 * Nothing ran.
 *
 * @example
 * throw new ApprovalError('already_handled', 'approval ap_… was already approved by cli:bob');
 */
export class ApprovalError extends TinyClawError {
  readonly refusal: ApprovalRefusal;

  constructor(refusal: ApprovalRefusal, message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, code: 'approval' });
    this.refusal = refusal;
  }
}

/**
 * How an agent pauses risky calls and continues them after a decision. Implemented by
 * `@tiny-claw/approval`; an agent without a gate never pauses.
 *
 * @example
 * const agent = createAgent({ provider, tools, approvals: createApprovalGate({ store, policy }) });
 * const result = await agent.run('deploy it');
 * if (result.stopReason === 'approval_required') await agent.resume(result.approvalId!, { decision: 'approve', actor: 'cli:me' });
 */
export interface ApprovalGate {
  /**
   * Runs around every tool call, after the policy check and before your middleware: it lets a
   * call through, refuses it, or pauses it (`status: 'suspended'` with a new approval id and the
   * checkpoint id the run state will be written under).
   */
  readonly middleware: ToolMiddleware;
  /** Write the run state of a run that paused, under the checkpoint id the middleware gave. */
  saveCheckpoint(checkpointId: string, state: RunState): Promise<void>;
  /**
   * Check a decision in order (see {@link approvalRefusals}), claim it so that of two concurrent
   * decisions exactly one wins, and return what to continue from: the paused run's state as the
   * gate stored it, or `options.state` when the caller holds the state itself (it is checked
   * against the request just the same: same session, the waiting call unanswered and unchanged).
   *
   * @throws ApprovalError when the decision is refused; nothing is claimed then.
   */
  claim(
    approvalId: string,
    decision: ApprovalDecision & { session: SessionRef },
    options?: { state?: RunState },
  ): Promise<ClaimedApproval>;
  /**
   * The claimed call was answered: `consumed` after an approved call ran (whatever its outcome),
   * `rejected` after a rejection was handed to the model.
   */
  complete(claimed: ClaimedApproval, status: 'consumed' | 'rejected'): Promise<void>;
}
