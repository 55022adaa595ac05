/**
 * One holder at a time per key, for a limited time: what lets several processes (or replicas of a
 * server) agree who works on something — one chat's runs, say — without a coordinator. A holder
 * that stops renewing loses the lease when it expires, so a crashed process blocks nobody for
 * longer than its lease.
 *
 * @example
 * const lease = await store.leases.acquire(`chat:${chatId}`, `replica-${process.pid}`, 30_000);
 * if (lease) {
 *   try { await work(); } finally { await lease.release(); }
 * }
 */
export interface LeaseStore {
  /**
   * Take the lease on `key` for `holder`, for `ttlMs` milliseconds. Resolves to undefined while
   * anyone holds an unexpired lease on the key — `holder` itself included: a lease is not
   * re-entrant. A lease that expired (the instant it expires counts as expired) or was released
   * is taken over. Of any number of concurrent calls for one free key, exactly one gets a lease.
   *
   * @throws ConfigurationError for an empty or over-long key or holder (see `checkStoreKey`) or a
   * ttl that is not a positive whole number of milliseconds; StateError when the store fails.
   *
   * @example
   * const lease = await leases.acquire('chat:oc_1', 'replica-a', 30_000);
   * await leases.acquire('chat:oc_1', 'replica-b', 30_000); // undefined while replica-a holds it
   */
  acquire(key: string, holder: string, ttlMs: number): Promise<Lease | undefined>;
}

/**
 * A lease held on one key. Only this object can renew or release it; a lease taken over by
 * someone else after it expired stays theirs.
 *
 * @example
 * const timer = setInterval(() => void lease.renew(), 10_000);
 */
export interface Lease {
  readonly key: string;
  readonly holder: string;
  /** When the lease runs out unless renewed; moves on with each successful {@link renew}. */
  readonly expiresAt: Date;
  /**
   * Extend the lease to `ttlMs` (default: the ttl it was taken with) from now. Resolves to true
   * when it is still this holder's — also after it expired, as long as nobody took it over —
   * and to false once it was released or taken over; a false renew changes nothing.
   *
   * @example
   * if (!(await lease.renew())) abortWork('the lease was lost');
   */
  renew(ttlMs?: number): Promise<boolean>;
  /**
   * Give the lease up, so the next `acquire` gets it at once. Nothing happens when it was already
   * released or taken over.
   *
   * @example
   * await lease.release();
   */
  release(): Promise<void>;
}
