import { ConfigurationError } from '../errors.js';

/** Longest key (or lease holder) a state store accepts, in characters. */
export const STORE_KEY_MAX_CHARS = 300;

/**
 * Check a key given to a state store's `seen` or `leases` (or a lease holder) and return it: a
 * non-empty string of at most {@link STORE_KEY_MAX_CHARS} characters. Every implementation checks
 * its arguments with this, so a key one store accepts is accepted by all.
 *
 * @throws ConfigurationError naming the rule.
 *
 * @example
 * checkStoreKey('message:om_1', 'seen key'); // 'message:om_1'
 * checkStoreKey('', 'lease key'); // throws
 */
export function checkStoreKey(key: unknown, what: string): string {
  if (typeof key === 'string' && key.length > 0 && key.length <= STORE_KEY_MAX_CHARS) return key;
  const shown = typeof key === 'string' ? JSON.stringify(key.slice(0, 60)) : String(key);
  throw new ConfigurationError(
    `Invalid ${what} ${shown}: it must be a non-empty string of at most ${STORE_KEY_MAX_CHARS} characters.`,
  );
}

/**
 * Check a time to live given to a state store and return it: a positive whole number of
 * milliseconds.
 *
 * @throws ConfigurationError naming the value.
 *
 * @example
 * checkTtlMs(12 * 60 * 60 * 1000); // 43200000
 * checkTtlMs(0); // throws
 */
export function checkTtlMs(ttlMs: unknown): number {
  if (typeof ttlMs === 'number' && Number.isSafeInteger(ttlMs) && ttlMs > 0) return ttlMs;
  throw new ConfigurationError(
    `Invalid time to live ${String(ttlMs)}: it must be a positive whole number of milliseconds.`,
  );
}
