import { randomUUID } from 'node:crypto';
import type { Lease, LeaseStore } from './lease-store.js';
import { checkStoreKey, checkTtlMs } from './store-arguments.js';

interface Held {
  holder: string;
  token: string;
  expiresAt: number;
}

/**
 * Leases kept in this process: each decision is made synchronously, so of concurrent acquirers
 * of one key exactly one wins. A released or taken-over lease's holder learns it on its next
 * renew.
 *
 * @example
 * const leases = memoryLeases(() => new Date());
 * const lease = await leases.acquire('chat:oc_1', 'me', 30_000);
 */
export function memoryLeases(clock: () => Date): LeaseStore {
  const held = new Map<string, Held>();
  return {
    async acquire(key, holder, ttlMs) {
      checkStoreKey(key, 'lease key');
      checkStoreKey(holder, 'lease holder');
      checkTtlMs(ttlMs);
      const now = clock().getTime();
      const current = held.get(key);
      if (current !== undefined && current.expiresAt > now) return undefined;
      const mine: Held = { holder, token: randomUUID(), expiresAt: now + ttlMs };
      held.set(key, mine);
      return heldLease(key, mine, ttlMs);
    },
  };

  function heldLease(key: string, mine: Held, defaultTtlMs: number): Lease {
    return {
      key,
      holder: mine.holder,
      get expiresAt() {
        return new Date(mine.expiresAt);
      },
      async renew(ttlMs = defaultTtlMs) {
        checkTtlMs(ttlMs);
        if (held.get(key)?.token !== mine.token) return false;
        mine.expiresAt = clock().getTime() + ttlMs;
        return true;
      },
      async release() {
        if (held.get(key)?.token === mine.token) held.delete(key);
      },
    };
  }
}
