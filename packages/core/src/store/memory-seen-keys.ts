import { SEEN_KEYS_MAX_ENTRIES, type SeenKeys } from './seen-keys.js';
import { checkStoreKey, checkTtlMs } from './store-arguments.js';

/** How many remembers pass between two sweeps of expired keys. */
const SWEEP_EVERY = 1000;

/**
 * Seen keys kept in this process: decided synchronously, so concurrent callers of one key cannot
 * both win. Expired keys are swept every 1,000 remembers, and past `maxEntries` unexpired keys the
 * oldest are forgotten first.
 *
 * @example
 * const seen = memorySeenKeys(() => new Date());
 * await seen.remember('event:ev_1', 60_000); // true
 */
export function memorySeenKeys(clock: () => Date, maxEntries = SEEN_KEYS_MAX_ENTRIES): SeenKeys {
  /** Key → expiry (ms); insertion order is remember order, so the oldest come first. */
  const entries = new Map<string, number>();
  let sinceSweep = 0;
  return {
    async remember(key, ttlMs) {
      checkStoreKey(key, 'seen key');
      checkTtlMs(ttlMs);
      const now = clock().getTime();
      const expiresAt = entries.get(key);
      if (expiresAt !== undefined && expiresAt > now) return false;
      // Re-inserted so the Map's order stays remember order.
      entries.delete(key);
      entries.set(key, now + ttlMs);
      sinceSweep += 1;
      if (sinceSweep >= SWEEP_EVERY || entries.size > maxEntries) {
        sinceSweep = 0;
        sweepSeenKeys(entries, now, maxEntries);
      }
      return true;
    },
  };
}

/** Drop the expired keys of `entries` and, past `maxEntries`, the oldest unexpired ones. */
function sweepSeenKeys(entries: Map<string, number>, now: number, maxEntries: number): void {
  for (const [key, expiresAt] of entries) if (expiresAt <= now) entries.delete(key);
  for (const key of entries.keys()) {
    if (entries.size <= maxEntries) break;
    entries.delete(key);
  }
}
