import type { ApprovalRecord, ApprovalStatus } from './approval-record.js';
import type { ApprovalStores, ListApprovalsOptions } from './approval-store.js';
import { tidyCheckpoint } from './checkpoint-lifetime.js';
import { FileApprovalStore } from './file-approval-store.js';
import { FileCheckpointStore } from './file-checkpoint-store.js';
import { checkRecordId } from './record-id.js';
import { settleStaleClaim } from './stale-claim.js';

/**
 * Options of {@link listApprovals}.
 *
 * @example
 * await listApprovals(stateDir, { status: 'pending', sessionKey: session.key });
 */
export interface ListApprovalsQuery extends ListApprovalsOptions {
  /** Only requests in this status (after dead claims are settled). */
  status?: ApprovalStatus;
}

function fileStores(stateDir: string): ApprovalStores {
  return {
    approvals: new FileApprovalStore(stateDir),
    checkpoints: new FileCheckpointStore(stateDir),
  };
}

/**
 * The approval requests under a state dir, oldest first, for front ends that list them. A request
 * whose claimant process died is stored and shown as `unknown_outcome`; an unreadable record is
 * moved aside and reported through `onUnreadable` (thrown after the scan when there is none).
 * Listing also deletes the checkpoints no request can use any more: a request found still
 * `pending` past its expiry is shown as found, then recorded as `expired` and its checkpoint
 * deleted; the checkpoint of a request already answered, expired or failed is deleted.
 *
 * @example
 * for (const record of await listApprovals('/home/me/.tiny-claw', { status: 'pending' })) {
 *   console.log(record.id, record.toolName, record.riskReasons.join('; '));
 * }
 */
export async function listApprovals(
  stateDir: string,
  query: ListApprovalsQuery = {},
): Promise<ApprovalRecord[]> {
  const stores = fileStores(stateDir);
  const { status, ...options } = query;
  const records: ApprovalRecord[] = [];
  for (const record of await stores.approvals.list(options)) {
    const current = await settleStaleClaim(stores.approvals, record);
    if (status === undefined || current.status === status) records.push(current);
    await tidyCheckpoint(stores, current, new Date());
  }
  return records;
}

/**
 * One approval request by id, whatever session holds it, or undefined when none does. Validated
 * like every record; a request whose claimant process died is stored and returned as
 * `unknown_outcome`. Its checkpoint is settled as {@link listApprovals} does.
 *
 * @throws ApprovalError `invalid_id` for a malformed id (before any file is touched).
 * @throws StateError when the record is corrupt (it has been moved aside) or a symbolic link.
 *
 * @example
 * const record = await readApproval('/home/me/.tiny-claw', 'ap_0bX3kR9d2LqvYw7aP1sT4g');
 * if (record?.status === 'pending') console.log(`expires at ${record.expiresAt}`);
 */
export async function readApproval(
  stateDir: string,
  id: string,
): Promise<ApprovalRecord | undefined> {
  checkRecordId(id);
  const stores = fileStores(stateDir);
  const sessionKey = await stores.approvals.locate(id);
  if (sessionKey === undefined) return undefined;
  const record = await stores.approvals.read(sessionKey, id);
  if (record === undefined) return undefined;
  const current = await settleStaleClaim(stores.approvals, record);
  await tidyCheckpoint(stores, current, new Date());
  return current;
}
