import {
  type ApprovalRecord,
  type ApprovalStatus,
  type ApprovalStores,
  StateError,
} from '@tiny-claw/core';
import { currentClaimant } from './claimant.js';
import { settleStaleClaim } from './stale-claim.js';

/**
 * Statuses from which a request is never resumed. A checkpoint holds the whole conversation of
 * the paused run, secrets a tool printed included, so it is kept only while its request can still
 * be decided: `pending`, or `claimed` by a live process that is about to read it.
 */
const SPENT: ReadonlySet<ApprovalStatus> = new Set<ApprovalStatus>([
  'consumed',
  'rejected',
  'expired',
  'failed',
  'unknown_outcome',
]);

/** Who a claim taken only to record an expiry names as its actor. */
const EXPIRY_ACTOR = 'tiny-claw:expiry';

/**
 * Bring one request's checkpoint in line with the request: delete it when the request is spent
 * (see {@link SPENT}), and record a request still `pending` past its expiry as `expired` (the
 * expiry instant counts as expired) and delete its checkpoint. The expiry takes the request's
 * one-time claim first, as a decision does, so it never races a person deciding at that moment:
 * whoever claims first wins and the other leaves the request alone. Returns the request as it is
 * now stored.
 *
 * @example
 * const current = await settleCheckpoint(stores, record, new Date());
 */
export async function settleCheckpoint(
  stores: ApprovalStores,
  record: ApprovalRecord,
  now: Date,
): Promise<ApprovalRecord> {
  if (SPENT.has(record.status)) {
    await stores.runStates.delete(record.sessionKey, record.checkpointId);
    return record;
  }
  if (record.status !== 'pending' || now.getTime() < Date.parse(record.expiresAt)) return record;
  const ticket = { ...currentClaimant(now), actor: EXPIRY_ACTOR, decision: 'expire' as const };
  if (!(await stores.approvals.claim(record.sessionKey, record.id, ticket))) return record;
  const expired: ApprovalRecord = { ...record, status: 'expired', completedAt: now.toISOString() };
  await stores.approvals.write(expired);
  await stores.runStates.delete(record.sessionKey, record.checkpointId);
  return expired;
}

/**
 * {@link settleCheckpoint} as housekeeping beside something else (a listing, a lookup): a file that
 * cannot be read, written or removed right now is left for the next time.
 *
 * @example
 * await tidyCheckpoint(stores, record, new Date());
 */
export async function tidyCheckpoint(
  stores: ApprovalStores,
  record: ApprovalRecord,
  now: Date,
): Promise<void> {
  try {
    await settleCheckpoint(stores, record, now);
  } catch (error) {
    if (!isFileProblem(error)) throw error;
  }
}

/**
 * Settle every request of one session: dead claims (see {@link settleStaleClaim}), expiries and
 * the checkpoints of spent requests. Run whenever the session is touched (a new pause, a decision,
 * a listing), so nothing waits for a person who will never come back. It is housekeeping: a record
 * that cannot be read (the store has moved it aside) or a file that cannot be removed right now is
 * left for the next sweep, and never fails the pause or decision it runs with.
 *
 * @example
 * await sweepSessionCheckpoints(stores, session.key, new Date());
 */
export async function sweepSessionCheckpoints(
  stores: ApprovalStores,
  sessionKey: string,
  now: Date,
): Promise<void> {
  let records: ApprovalRecord[];
  try {
    records = await stores.approvals.list({ sessionKey, onUnreadable: () => {} });
  } catch (error) {
    if (isFileProblem(error)) return;
    throw error;
  }
  for (const record of records) {
    let current: ApprovalRecord;
    try {
      current = await settleStaleClaim(stores.approvals, record);
    } catch (error) {
      if (!isFileProblem(error)) throw error;
      continue;
    }
    await tidyCheckpoint(stores, current, now);
  }
}

/** A state file that could not be read, written or removed (not a bug in this code). */
function isFileProblem(error: unknown): boolean {
  return (
    error instanceof StateError ||
    (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string')
  );
}
