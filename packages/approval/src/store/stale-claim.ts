import type { ApprovalRecord, ApprovalStore } from '@tiny-claw/core';
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
  } else if (record.status === 'pending') {
    const ticket = await store.ticket(record.sessionKey, record.id);
    if (!ticket || !claimantIsGone(ticket)) return record;
  } else {
    return record;
  }
  // The claimant finished its last write before it died, and it cannot write again: read once
  // more, so a result it stored after the first read (say `consumed`) is kept, not overwritten.
  const current = await store.read(record.sessionKey, record.id);
  if (!current) return record;
  const settled = await staleOutcome(store, current);
  if (settled !== current) await store.write(settled);
  return settled;
}

async function staleOutcome(store: ApprovalStore, record: ApprovalRecord): Promise<ApprovalRecord> {
  if (record.status === 'claimed') return { ...record, status: 'unknown_outcome' };
  if (record.status !== 'pending') return record;
  const ticket = await store.ticket(record.sessionKey, record.id);
  if (!ticket) return record;
  const { actor, decision, ...claimedBy } = ticket;
  if (decision === 'expire') return { ...record, status: 'expired' };
  return {
    ...record,
    status: 'unknown_outcome',
    decision,
    decidedBy: actor,
    decidedAt: claimedBy.at,
    claimedBy,
  };
}
