import type { StateError } from '../errors.js';
import type { ApprovalRecord, ClaimTicket } from './approval-record.js';
import type { CheckpointRecord } from './checkpoint-record.js';

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
 * Where approval requests live, with their one-time claim: the `approvals` of a `StateStore`.
 * Records are validated against `approvalRecordSchema` on the way in and on the way out, and
 * handed out as copies. Ids are checked with `checkRecordId` and session keys with
 * `validateSessionKey` before they are used.
 *
 * @example
 * const record = await store.approvals.read(session.key, 'ap_0bX3kR9d2LqvYw7aP1sT4g');
 */
export interface ApprovalStore {
  /**
   * Store a new request.
   *
   * @throws StateError when a request with this id already exists; a zod error for a record that
   * does not match the schema.
   *
   * @example
   * await approvals.create({ ...record, status: 'pending' });
   */
  create(record: ApprovalRecord): Promise<void>;
  /**
   * The request `id` of session `sessionKey`, or undefined when there is none.
   *
   * @throws ApprovalError `invalid_id` for a malformed id; StateError when it exists but cannot be
   * used (corrupt: moved aside; a symlink: refused).
   *
   * @example
   * const record = await approvals.read(session.key, id);
   */
  read(sessionKey: string, id: string): Promise<ApprovalRecord | undefined>;
  /**
   * Replace a stored request (same session, same id).
   *
   * @example
   * await approvals.write({ ...record, status: 'consumed', completedAt: now });
   */
  write(record: ApprovalRecord): Promise<void>;
  /**
   * The key of the session holding request `id`, or undefined when no session does.
   *
   * @example
   * const sessionKey = await approvals.locate('ap_0bX3kR9d2LqvYw7aP1sT4g');
   */
  locate(id: string): Promise<string | undefined>;
  /**
   * Every readable request, or one session's, oldest first (by `createdAt`, then id).
   *
   * @example
   * const pending = (await approvals.list({ sessionKey })).filter((r) => r.status === 'pending');
   */
  list(options?: ListApprovalsOptions): Promise<ApprovalRecord[]>;
  /**
   * Take the one-time claim on request `id`. Of any number of concurrent claims exactly one ever
   * gets true — across processes, for a store outside the process; the claim is never released,
   * so a request edited back to `pending` still cannot be decided twice.
   *
   * @example
   * if (!(await approvals.claim(key, id, ticket))) throw new Error('already decided');
   */
  claim(sessionKey: string, id: string, ticket: ClaimTicket): Promise<boolean>;
  /**
   * Who holds the claim on request `id`: undefined when nobody does, or when that cannot be read.
   *
   * @example
   * const holder = await approvals.ticket(key, id); // { actor: 'cli:me', decision: 'approve', … }
   */
  ticket(sessionKey: string, id: string): Promise<ClaimTicket | undefined>;
}

/**
 * Where paused runs' states live, by session key and checkpoint id: the `runStates` of a
 * `StateStore`. A state is kept only as long as its request can still be decided (the approval
 * gate deletes it then), validated against `checkpointRecordSchema` and handed out as a copy.
 *
 * @example
 * const checkpoint = await store.runStates.read(session.key, record.checkpointId);
 */
export interface CheckpointStore {
  /**
   * Store (or replace) a paused run's state, atomically: a failure leaves the old one or the new
   * one, never a mix.
   *
   * @example
   * await runStates.save({ schemaVersion: 1, id: checkpointId, sessionKey, approvalId, createdAt, state });
   */
  save(record: CheckpointRecord): Promise<void>;
  /**
   * The state `id` of session `sessionKey`, or undefined when there is none.
   *
   * @throws ApprovalError `invalid_id` for a malformed id; StateError when it exists but cannot be
   * used (corrupt: moved aside; a symlink: refused).
   *
   * @example
   * const checkpoint = await runStates.read(session.key, 'cp_Yk9sT4gQ2xhd0FwcHJvdmFs');
   */
  read(sessionKey: string, id: string): Promise<CheckpointRecord | undefined>;
  /**
   * Remove state `id` of session `sessionKey`, once its request can no longer be resumed
   * (answered, expired, failed). Nothing happens when there is none.
   *
   * @example
   * await runStates.delete(session.key, record.checkpointId);
   */
  delete(sessionKey: string, id: string): Promise<void>;
}
