import type { StateError } from '@tiny-claw/core';
import type { ApprovalRecord, Claimant } from './approval-record.js';
import type { CheckpointRecord } from './checkpoint-record.js';

/**
 * The one-time claim on an approval request: who took it, and for what. Whoever holds it is the
 * only one who may change the request's status from `pending`.
 *
 * @example
 * const ticket: ClaimTicket = { pid: process.pid, host: hostname(), at: now, actor: 'cli:me', decision: 'approve' };
 */
export interface ClaimTicket extends Claimant {
  actor: string;
  /** `expire` when the claim was taken to record that the request ran out of time. */
  decision: 'approve' | 'reject' | 'expire';
}

/**
 * Options of {@link ApprovalStore.list}.
 *
 * @example
 * await store.list({ sessionKey: session.key, onUnreadable: (error) => console.warn(error.message) });
 */
export interface ListApprovalsOptions {
  /** Only this session's requests. */
  sessionKey?: string;
  /**
   * Called for each record that could not be read (it has been moved aside); without it the
   * first such error is thrown once every record has been looked at.
   */
  onUnreadable?: (error: StateError) => void;
}

/**
 * Where approval requests live. Implementations: {@link FileApprovalStore} (one JSON file per
 * request under the state dir) and {@link MemoryApprovalStore} (for agents without a state dir).
 *
 * @example
 * const store: ApprovalStore = new FileApprovalStore('/home/me/.tiny-claw');
 */
export interface ApprovalStore {
  /** Store a new request. @throws StateError when a request with this id already exists. */
  create(record: ApprovalRecord): Promise<void>;
  /**
   * The request `id` of session `sessionKey`, or undefined when there is none.
   * @throws StateError when it exists but cannot be used (corrupt: moved aside; a symlink: refused).
   */
  read(sessionKey: string, id: string): Promise<ApprovalRecord | undefined>;
  /** Replace a stored request (same session, same id). */
  write(record: ApprovalRecord): Promise<void>;
  /** The key of the session holding request `id`, or undefined when no session does. */
  locate(id: string): Promise<string | undefined>;
  /** Every readable request, oldest first. */
  list(options?: ListApprovalsOptions): Promise<ApprovalRecord[]>;
  /**
   * Take the one-time claim on request `id`. Exactly one caller ever gets `true`, across
   * processes for the file store; the claim is never released.
   */
  claim(sessionKey: string, id: string, ticket: ClaimTicket): Promise<boolean>;
  /** Who holds the claim on request `id`: undefined when nobody does, or when that cannot be read. */
  ticket(sessionKey: string, id: string): Promise<ClaimTicket | undefined>;
}

/**
 * Where paused runs live, each only as long as its request can still be decided. Implementations:
 * {@link FileCheckpointStore} and {@link MemoryCheckpointStore}.
 *
 * @example
 * const checkpoint = await checkpoints.read(session.key, record.checkpointId);
 */
export interface CheckpointStore {
  /** Store (or replace) a checkpoint, atomically. */
  save(record: CheckpointRecord): Promise<void>;
  /**
   * Checkpoint `id` of session `sessionKey`, or undefined when there is none.
   * @throws StateError when it exists but cannot be used (corrupt: moved aside; a symlink: refused).
   */
  read(sessionKey: string, id: string): Promise<CheckpointRecord | undefined>;
  /**
   * Remove checkpoint `id` of session `sessionKey`, once its request can no longer be resumed
   * (answered, expired, failed). Nothing happens when there is none.
   */
  delete(sessionKey: string, id: string): Promise<void>;
}

/**
 * The two stores an approval gate works with.
 *
 * @example
 * const stores: ApprovalStores = { approvals: new MemoryApprovalStore(), checkpoints: new MemoryCheckpointStore() };
 */
export interface ApprovalStores {
  approvals: ApprovalStore;
  checkpoints: CheckpointStore;
}
