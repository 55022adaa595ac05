import type { ApprovalRecord } from './approval-record.js';
import type { ApprovalStore } from './approval-store.js';
import { claimantIsGone } from './claimant.js';

/**
 * Bring a request whose claimant died up to date, store it, and return it; any other request is
 * returned as it is. A request left `claimed`, or still `pending` with a claim taken, by a process
 * that no longer exists becomes `unknown_outcome`: the call may have run, so it is never run again
 * automatically and a person has to look. A claim taken only to record an expiry becomes `expired`.
 *
 * @example
 * const current = await settleStaleClaim(store, await store.read(key, id));
 */
export async function settleStaleClaim(
  store: ApprovalStore,
  record: ApprovalRecord,
): Promise<ApprovalRecord> {
  if (record.status === 'claimed') {
    if (!record.claimedBy || !claimantIsGone(record.claimedBy)) return record;
    const settled: ApprovalRecord = { ...record, status: 'unknown_outcome' };
    await store.write(settled);
    return settled;
  }
  if (record.status !== 'pending') return record;
  const ticket = await store.ticket(record.sessionKey, record.id);
  if (!ticket || !claimantIsGone(ticket)) return record;
  const { actor, decision, ...claimedBy } = ticket;
  const settled: ApprovalRecord =
    decision === 'expire'
      ? { ...record, status: 'expired' }
      : {
          ...record,
          status: 'unknown_outcome',
          decision,
          decidedBy: actor,
          decidedAt: claimedBy.at,
          claimedBy,
        };
  await store.write(settled);
  return settled;
}
