import {
  type ApprovalGate,
  type ClaimedApproval,
  ConfigurationError,
  runStateSchema,
  StateError,
} from '@tiny-claw/core';
import type { ApprovalStores } from '../store/approval-store.js';
import { sweepSessionCheckpoints } from '../store/checkpoint-lifetime.js';
import { redactCheckpointState } from '../store/checkpoint-redaction.js';
import { FileApprovalStore } from '../store/file-approval-store.js';
import { FileCheckpointStore } from '../store/file-checkpoint-store.js';
import { MemoryApprovalStore } from '../store/memory-approval-store.js';
import { MemoryCheckpointStore } from '../store/memory-checkpoint-store.js';
import { checkRecordId } from '../store/record-id.js';
import { type ApprovalAssessor, approvalMiddleware } from './approval-middleware.js';
import { type CanDecide, claimApproval } from './claim-approval.js';
import { ClaimTokens } from './claim-tokens.js';

/** How long a request waits for a decision unless told otherwise: one hour. */
const DEFAULT_TIMEOUT_SECONDS = 3600;

/**
 * Options of {@link createApprovalGate}.
 *
 * @example
 * const options: ApprovalGateOptions = { stateDir: '/home/me/.tiny-claw', assess, timeoutSeconds: 900 };
 */
export interface ApprovalGateOptions {
  /** Keep requests and checkpoints as files under this directory; in memory when absent. */
  stateDir?: string;
  /** Use these stores instead (e.g. one memory store shared by two gates); wins over `stateDir`. */
  stores?: ApprovalStores;
  /** The risk policy asked about every call. */
  assess: ApprovalAssessor;
  /** Seconds a request waits for a decision before it expires (default 3600). */
  timeoutSeconds?: number;
  /** Who may decide a request (default: anyone who can reach its session). */
  canDecide?: CanDecide;
  /** The time (default: the system clock); a test passes a fake one. */
  clock?: () => Date;
}

/**
 * The approval gate an agent pauses risky calls with: its middleware asks the risk policy about
 * every call and stores a request (pausing the run) when a person must decide; `saveCheckpoint`
 * keeps the paused run, with secrets the resumed run does not need redacted; `claim` checks a
 * decision and claims it so it takes effect at most once; `complete` records how the call was
 * answered. Requests and checkpoints are files under `stateDir` (so a decision can come from
 * another process), or kept in memory without one. A checkpoint lives only while its request can
 * be decided: it is deleted when the call is answered (approved and run, or rejected), when the
 * decision fails, and when the request is found expired — by a decision, or by the sweep of the
 * session's requests that every new pause, decision and listing runs.
 *
 * @throws ConfigurationError for a missing `assess` or a timeout that is not a positive number.
 *
 * @example
 * const agent = createAgent({ provider, tools, approvals: createApprovalGate({ stateDir, assess: assessCall }) });
 * const result = await agent.run('clean the build dir');
 * if (result.stopReason === 'approval_required') await agent.resume(result.approvalId!, { decision: 'approve', actor: 'cli:me' });
 */
export function createApprovalGate(options: ApprovalGateOptions): ApprovalGate {
  if (typeof options?.assess !== 'function') {
    throw new ConfigurationError(
      'createApprovalGate needs assess: a function (call, ctx) => Promise<{ verdict, reasons }> (e.g. the risk policy)',
    );
  }
  const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    throw new ConfigurationError(
      `timeoutSeconds must be a positive number of seconds, got ${String(timeoutSeconds)}`,
    );
  }
  const stores = options.stores ?? storesFor(options.stateDir);
  const clock = options.clock ?? (() => new Date());
  const canDecide: CanDecide = options.canDecide ?? (() => true);
  const tokens = new ClaimTokens();
  const claimedSession = new Map<string, string>();

  const middleware = approvalMiddleware({
    approvals: stores.approvals,
    assess: options.assess,
    tokens,
    timeoutSeconds,
    clock,
  });

  return {
    middleware,

    async saveCheckpoint(checkpointId, state) {
      checkRecordId(checkpointId, 'checkpoint');
      const copy = runStateSchema.parse(structuredClone(state));
      const sessionKey = copy.session.key;
      // The paused run names the request it waits on beside the waiting call.
      const approvalId =
        copy.batch?.calls.find((entry) => entry.approval?.checkpointId === checkpointId)?.approval
          ?.approvalId ??
        (await stores.approvals.list({ sessionKey })).find((r) => r.checkpointId === checkpointId)
          ?.id;
      if (approvalId === undefined) {
        throw new StateError(
          `no approval request of session ${sessionKey} refers to checkpoint ${checkpointId}; only a run paused by this gate can be checkpointed`,
        );
      }
      await stores.checkpoints.save({
        schemaVersion: 1,
        id: checkpointId,
        sessionKey,
        approvalId,
        createdAt: clock().toISOString(),
        state: redactCheckpointState(copy),
      });
      await sweepSessionCheckpoints(stores, sessionKey, clock());
    },

    async claim(approvalId, decision, claimOptions = {}): Promise<ClaimedApproval> {
      const outcome = await claimApproval(
        { stores, clock, canDecide },
        approvalId,
        decision,
        claimOptions.state,
      );
      // Housekeeping of the session's other requests: once a decision is claimed nothing may stop
      // it from being carried out, so a sweep that fails is left for the next one.
      await sweepSessionCheckpoints(stores, outcome.record.sessionKey, clock()).catch(() => {});
      const { record, state, call } = outcome;
      claimedSession.set(record.id, record.sessionKey);
      const claimed: ClaimedApproval = {
        approvalId: record.id,
        checkpointId: record.checkpointId,
        decision: decision.decision,
        actor: decision.actor,
        state,
        callId: call.id,
        waitMs: outcome.waitMs,
      };
      if (decision.decision === 'approve') {
        claimed.grant = {
          approvalId: record.id,
          token: tokens.issue({
            approvalId: record.id,
            callId: call.id,
            toolCallHash: record.toolCallHash,
            preImage: record.preImage,
          }),
        };
      }
      if (decision.reason !== undefined) claimed.reason = decision.reason;
      return claimed;
    },

    async complete(claimed, status) {
      if (status !== 'consumed' && status !== 'rejected') {
        throw new ConfigurationError(
          `complete takes 'consumed' or 'rejected', got ${String(status)}`,
        );
      }
      tokens.revoke(claimed.approvalId);
      const sessionKey = claimedSession.get(claimed.approvalId) ?? claimed.state.session.key;
      const record = await stores.approvals.read(sessionKey, checkRecordId(claimed.approvalId));
      if (record === undefined) {
        throw new StateError(
          `approval ${claimed.approvalId} disappeared before it could be completed`,
        );
      }
      // Only the claimant's own claim is finished; a request already final stays as it is.
      if (record.status === 'claimed' || record.status === 'unknown_outcome') {
        await stores.approvals.write({ ...record, status, completedAt: clock().toISOString() });
      }
      claimedSession.delete(claimed.approvalId);
      // The resumed run holds the state now; the paused run's copy is never read again. A file
      // that cannot be removed right now is left to the next sweep of the session (the request is
      // final, so the sweep deletes it) rather than failing a call that already ran.
      await stores.checkpoints.delete(sessionKey, record.checkpointId).catch(() => {});
    },
  };
}

function storesFor(stateDir: string | undefined): ApprovalStores {
  if (stateDir === undefined) {
    return { approvals: new MemoryApprovalStore(), checkpoints: new MemoryCheckpointStore() };
  }
  if (typeof stateDir !== 'string' || stateDir === '') {
    throw new ConfigurationError(
      'stateDir must be a non-empty path, or left out to keep approvals in memory',
    );
  }
  return {
    approvals: new FileApprovalStore(stateDir),
    checkpoints: new FileCheckpointStore(stateDir),
  };
}
