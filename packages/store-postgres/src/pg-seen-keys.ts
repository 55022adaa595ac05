import type { SeenKeys } from '@tiny-claw/core';
import { checkStoreKey, checkTtlMs } from '@tiny-claw/core/store';
import type { PostgresDb } from './postgres-db.js';

/** How many remembers of one store pass between two deletions of expired keys. */
const SWEEP_EVERY = 1000;

/**
 * Seen keys in the `seen_keys` table, the key unique: a remember is one INSERT that adds the key,
 * or takes over its row only when the row has expired by the store's clock — so of any number of
 * processes remembering one key at once exactly one is told true, and a repeat never moves the
 * first expiry. Expired rows are deleted every 1,000 remembers of a store.
 *
 * @example
 * if (!(await pgSeenKeys(db, clock).remember(`event:${id}`, ttlMs))) return; // delivered before
 */
export function pgSeenKeys(db: PostgresDb, clock: () => Date): SeenKeys {
  const table = db.table('seen_keys');
  let sinceSweep = 0;
  return {
    async remember(key, ttlMs) {
      checkStoreKey(key, 'seen key');
      checkTtlMs(ttlMs);
      const now = clock().getTime();
      const result = await db.query(
        `INSERT INTO ${table} AS seen (key, expires_at) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE seen.expires_at <= $3`,
        [key, now + ttlMs, now],
      );
      sinceSweep += 1;
      if (sinceSweep >= SWEEP_EVERY) {
        sinceSweep = 0;
        await db.query(`DELETE FROM ${table} WHERE expires_at <= $1`, [now]);
      }
      return result.rowCount === 1;
    },
  };
}
