import type {
  ApprovalRecord,
  ApprovalStatus,
  ApprovalStores,
  ListApprovalsOptions,
} from '@tiny-claw/core';
import { checkRecordId } from '@tiny-claw/core/store';
import { tidyCheckpoint } from './checkpoint-lifetime.js';
import { settleStaleClaim } from './stale-claim.js';

/**
 * Options of {@link listApprovals}.
 *
 * @example
 * await listApprovals(store, { status: 'pending', sessionKey: session.key });
 */
export interface ListApprovalsQuery extends ListApprovalsOptions {
  /** Only requests in this status (after dead claims are settled). */
  status?: ApprovalStatus;
}

/**
 * The approval requests of a state store, oldest first, for front ends that list them. A request
 * whose claimant process died is stored and shown as `unknown_outcome`; an unreadable record is
 * moved aside and reported through `onUnreadable` (thrown after the scan when there is none).
 * Listing also deletes the paused runs' states no request can use any more: a request found still
 * `pending` past its expiry is shown as found, then recorded as `expired` and its state deleted;
 * the state of a request already answered, expired or failed is deleted.
 *
 * @example
 * for (const record of await listApprovals(createFileStore('/home/me/.tiny-claw'), { status: 'pending' })) {
 *   console.log(record.id, record.toolName, record.riskReasons.join('; '));
 * }
 */
export async function listApprovals(
  store: ApprovalStores,
  query: ListApprovalsQuery = {},
): Promise<ApprovalRecord[]> {
  const { status, ...options } = query;
  const records: ApprovalRecord[] = [];
  for (const record of await store.approvals.list(options)) {
    const current = await settleStaleClaim(store.approvals, record);
    if (status === undefined || current.status === status) records.push(current);
    await tidyCheckpoint(store, current, new Date());
  }
  return records;
}

/**
 * One approval request of a state store by id, whatever session holds it, or undefined when none
 * does. Validated like every record; a request whose claimant process died is stored and returned
 * as `unknown_outcome`. Its paused run's state is settled as {@link listApprovals} does.
 *
 * @throws ApprovalError `invalid_id` for a malformed id (before the store is asked).
 * @throws StateError when the record is corrupt (it has been moved aside) or a symbolic link.
 *
 * @example
 * const record = await readApproval(store, 'ap_0bX3kR9d2LqvYw7aP1sT4g');
 * if (record?.status === 'pending') console.log(`expires at ${record.expiresAt}`);
 */
export async function readApproval(
  store: ApprovalStores,
  id: string,
): Promise<ApprovalRecord | undefined> {
  checkRecordId(id);
  const sessionKey = await store.approvals.locate(id);
  if (sessionKey === undefined) return undefined;
  const record = await store.approvals.read(sessionKey, id);
  if (record === undefined) return undefined;
  const current = await settleStaleClaim(store.approvals, record);
  await tidyCheckpoint(store, current, new Date());
  return current;
}
