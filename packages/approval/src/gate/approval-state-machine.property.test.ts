import type { ApprovalStatus, ClaimedApproval } from '@tiny-claw/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bashCall,
  cliSessionOf,
  gateHarness,
  pauseCall,
} from './__fixtures__/approval-fixtures.js';

/** Every change of status the gate may make; anything else is a bug. */
const allowed = new Set([
  'pending>claimed',
  'pending>expired',
  'claimed>consumed',
  'claimed>rejected',
  'claimed>failed',
]);

const action = fc.oneof(
  fc.record({
    kind: fc.constant('claim' as const),
    decision: fc.constantFrom('approve' as const, 'reject' as const),
    actor: fc.constantFrom('cli:a', 'cli:b'),
  }),
  fc.record({ kind: fc.constant('complete' as const) }),
  fc.record({ kind: fc.constant('wait' as const), minutes: fc.integer({ min: 1, max: 90 }) }),
  fc.record({ kind: fc.constant('burst' as const), size: fc.integer({ min: 2, max: 6 }) }),
);

describe('the approval state machine (property, seed printed on failure)', () => {
  it('moves only forward, lets at most one decision win, and never hands out a decided request again', async () => {
    const session = cliSessionOf('/repo');
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 12 }), async (actions) => {
        const harness = await gateHarness('memory');
        try {
          const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm -rf build'));
          const status = async () =>
            (await harness.stores.approvals.read(session.key, approvalId))
              ?.status as ApprovalStatus;
          let wins = 0;
          let held: ClaimedApproval | undefined;
          let before = await status();
          for (const step of actions) {
            if (step.kind === 'wait') harness.clock.advance(step.minutes * 60_000);
            if (step.kind === 'complete' && held) {
              await harness.gate.complete(
                held,
                held.decision === 'approve' ? 'consumed' : 'rejected',
              );
            }
            if (step.kind === 'claim' || step.kind === 'burst') {
              const attempts =
                step.kind === 'claim'
                  ? [
                      harness.gate.claim(approvalId, {
                        decision: step.decision,
                        actor: step.actor,
                        session,
                      }),
                    ]
                  : Array.from({ length: step.size }, (_, i) =>
                      harness.gate.claim(approvalId, {
                        decision: i % 2 === 0 ? 'approve' : 'reject',
                        actor: `cli:${i}`,
                        session,
                      }),
                    );
              for (const outcome of await Promise.allSettled(attempts)) {
                if (outcome.status === 'fulfilled') {
                  wins += 1;
                  held = outcome.value;
                }
              }
            }
            const after = await status();
            if (after !== before) expect(allowed.has(`${before}>${after}`)).toBe(true);
            before = after;
          }
          expect(wins).toBeLessThanOrEqual(1);
          if (wins === 1) expect(before).not.toBe('pending');
        } finally {
          await harness.cleanup();
        }
      }),
      { numRuns: 150 },
    );
  });
});
