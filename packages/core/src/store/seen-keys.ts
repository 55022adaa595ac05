/**
 * Keys recently seen, each for its own time to live: the de-duplication a front end needs when
 * the same event can arrive more than once (a chat platform delivers at least once and retries
 * for hours). One store's keys are shared by everyone using the store — across processes, for a
 * store that keeps them outside the process.
 *
 * An implementation may bound how many unexpired keys it keeps (the memory and file stores keep
 * the 100,000 most recent, forgetting the oldest first), so a flood of unique keys cannot exhaust
 * it.
 *
 * @example
 * if (!(await store.seen.remember(`message:${id}`, 12 * 60 * 60 * 1000))) return; // a repeat
 */
export interface SeenKeys {
  /**
   * Remember `key` for `ttlMs` milliseconds. Resolves to true for the first caller: the key was
   * not seen, or its time ran out (the instant it expires counts as expired). Resolves to false
   * while an earlier remember of the key is unexpired, and then changes nothing — the first
   * expiry stands. Of any number of concurrent calls for one key, exactly one gets true.
   *
   * @throws ConfigurationError for an empty or over-long key (see `checkStoreKey`) or a ttl that
   * is not a positive whole number of milliseconds; StateError when the store cannot record it.
   *
   * @example
   * await seen.remember('event:ev_1', 60_000); // true
   * await seen.remember('event:ev_1', 60_000); // false — for the next minute
   */
  remember(key: string, ttlMs: number): Promise<boolean>;
}

/** How many unexpired keys the memory and file stores keep before forgetting the oldest. */
export const SEEN_KEYS_MAX_ENTRIES = 100_000;
