import {
  type ApprovalGate,
  type ApprovalStores,
  type ClaimedApproval,
  ConfigurationError,
  createMemoryStore,
  runStateSchema,
  StateError,
} from '@tiny-claw/core';
import { checkRecordId } from '@tiny-claw/core/store';
import { sweepSessionCheckpoints } from '../store/checkpoint-lifetime.js';
import { redactCheckpointState } from '../store/checkpoint-redaction.js';
import { type ApprovalAssessor, approvalMiddleware } from './approval-middleware.js';
import { type CanDecide, claimApproval } from './claim-approval.js';
import { ClaimTokens } from './claim-tokens.js';

/** How long a request waits for a decision unless told otherwise: one hour. */
const DEFAULT_TIMEOUT_SECONDS = 3600;

/**
 * Options of {@link createApprovalGate}.
 *
 * @example
 * const options: ApprovalGateOptions = { store: createFileStore('/home/me/.tiny-claw'), assess, timeoutSeconds: 900 };
 */
export interface ApprovalGateOptions {
  /**
   * Where requests and paused runs' states are kept: a state store's `approvals` and `runStates`
   * — the agent's own store, so that both see the same requests. Default: a store in memory
   * (`createMemoryStore()`); `createFileStore(dir)` from `@tiny-claw/workspace` keeps them as
   * files, so a decision can come from another process.
   */
  store?: ApprovalStores;
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
 * answered. Requests and paused runs' states are kept in the state store it is given (files
 * under a state dir with the file store, so a decision can come from another process), or in
 * memory without one. A paused run's state lives only while its request can be decided: it is deleted when the call is answered (approved and run, or rejected), when the
 * decision fails, and when the request is found expired — by a decision, or by the sweep of the
 * session's requests that every new pause, decision and listing runs.
 *
 * @throws ConfigurationError for a missing `assess`, a timeout that is not a positive number, a
 * `store` without `approvals` and `runStates`, or the options of earlier versions (`stateDir`,
 * `stores`), with what to pass instead.
 *
 * @example
 * const store = createFileStore(stateDir);
 * const agent = createAgent({ provider, tools, store, approvals: createApprovalGate({ store, assess: assessCall }) });
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
  const stores = storeOf(options);
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
      await stores.runStates.save({
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
      await stores.runStates.delete(sessionKey, record.checkpointId).catch(() => {});
    },
  };
}

/** The store of the options: the given one, checked, or a new one in memory. */
function storeOf(options: ApprovalGateOptions): ApprovalStores {
  const given = options as ApprovalGateOptions & { stateDir?: unknown; stores?: unknown };
  if (given.stateDir !== undefined) {
    throw new ConfigurationError(
      'createApprovalGate no longer takes stateDir: pass store: createFileStore(stateDir) from @tiny-claw/workspace — the same store you give createAgent',
    );
  }
  if (given.stores !== undefined) {
    throw new ConfigurationError(
      'createApprovalGate takes store (a state store such as createMemoryStore() or createFileStore(dir)) instead of stores',
    );
  }
  const { store } = options;
  if (store === undefined) return createMemoryStore();
  if (
    typeof store?.approvals?.claim !== 'function' ||
    typeof store?.runStates?.save !== 'function'
  ) {
    throw new ConfigurationError(
      'store must be a state store with approvals and runStates (createMemoryStore() from @tiny-claw/core, createFileStore(dir) from @tiny-claw/workspace)',
    );
  }
  return store;
}
