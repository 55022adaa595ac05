import { randomUUID } from 'node:crypto';
import type { Lease, LeaseStore } from '@tiny-claw/core';
import { checkStoreKey, checkTtlMs } from '@tiny-claw/core/store';
import type { PostgresDb } from './postgres-db.js';

/**
 * Leases in the `leases` table, one row per key holding the holder, a random token and the expiry
 * (milliseconds by the store's clock). Acquiring is one INSERT that adds the row or takes over an
 * expired one, so of concurrent acquirers — in any process — exactly one gets the lease, and a
 * crashed holder's lease is taken over once it expires. Renewing and releasing match the token,
 * so a lease taken over stays its new holder's.
 *
 * @example
 * const lease = await pgLeases(db, clock).acquire('chat:oc_1', 'replica-a', 30_000);
 */
export function pgLeases(db: PostgresDb, clock: () => Date): LeaseStore {
  const table = db.table('leases');
  return {
    async acquire(key, holder, ttlMs) {
      checkStoreKey(key, 'lease key');
      checkStoreKey(holder, 'lease holder');
      checkTtlMs(ttlMs);
      const now = clock().getTime();
      const token = randomUUID();
      const result = await db.query(
        `INSERT INTO ${table} AS lease (key, holder, token, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key) DO UPDATE SET holder = EXCLUDED.holder, token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
         WHERE lease.expires_at <= $5`,
        [key, holder, token, now + ttlMs, now],
      );
      if (result.rowCount !== 1) return undefined;
      return heldLease(key, holder, token, now + ttlMs, ttlMs);
    },
  };

  function heldLease(
    key: string,
    holder: string,
    token: string,
    firstExpiry: number,
    defaultTtlMs: number,
  ): Lease {
    let expiresAt = firstExpiry;
    return {
      key,
      holder,
      get expiresAt() {
        return new Date(expiresAt);
      },
      async renew(ttlMs = defaultTtlMs) {
        checkTtlMs(ttlMs);
        const next = clock().getTime() + ttlMs;
        const result = await db.query(
          `UPDATE ${table} SET expires_at = $3 WHERE key = $1 AND token = $2`,
          [key, token, next],
        );
        if (result.rowCount !== 1) return false;
        expiresAt = next;
        return true;
      },
      async release() {
        await db.query(`DELETE FROM ${table} WHERE key = $1 AND token = $2`, [key, token]);
      },
    };
  }
}
