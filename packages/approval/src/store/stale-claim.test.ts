import { hostname } from 'node:os';
import { createMemoryStore } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { deadPid, pendingRecord } from './__fixtures__/records.js';
import { settleStaleClaim } from './stale-claim.js';

const at = '2026-01-01T00:10:00.000Z';

describe('settleStaleClaim', () => {
  it('keeps the result a claimant stored just before it exited, instead of overwriting it with unknown_outcome', async () => {
    const store = createMemoryStore().approvals;
    const claimedBy = { pid: deadPid(), host: hostname(), at };
    const seenEarlier = pendingRecord({ status: 'claimed', decision: 'approve', claimedBy });
    await store.create({ ...seenEarlier, status: 'consumed', completedAt: at });
    const settled = await settleStaleClaim(store, seenEarlier);
    expect(settled.status).toBe('consumed');
    expect((await store.read(seenEarlier.sessionKey, seenEarlier.id))?.status).toBe('consumed');
  });

  it('leaves final requests alone without looking for a claimant', async () => {
    const store = createMemoryStore().approvals;
    for (const status of [
      'consumed',
      'rejected',
      'expired',
      'failed',
      'unknown_outcome',
    ] as const) {
      const record = pendingRecord({ status });
      expect(await settleStaleClaim(store, record)).toBe(record);
    }
  });
});
