import { hostname } from 'node:os';
import type { Claimant } from '@tiny-claw/core';
import { isErrnoError } from '@tiny-claw/core/utils';

/**
 * This process as a claimant, at `at`.
 *
 * @example
 * const me = currentClaimant(new Date());
 */
export function currentClaimant(at: Date): Claimant {
  return { pid: process.pid, host: hostname(), at: at.toISOString() };
}

/**
 * True only when the claimant is known to have died: a process on this host that no longer
 * exists. A claimant on another host, or one whose existence cannot be checked, counts as alive —
 * wrongly calling a live claim dead could let its outcome be overwritten.
 *
 * @example
 * if (claimantIsGone(record.claimedBy)) console.log('that process crashed before finishing');
 */
export function claimantIsGone(claimant: Claimant): boolean {
  if (claimant.host !== hostname()) return false;
  if (claimant.pid === process.pid) return false;
  try {
    process.kill(claimant.pid, 0);
    return false;
  } catch (error) {
    return isErrnoError(error, 'ESRCH');
  }
}
