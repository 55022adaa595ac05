import { createHmac, type KeyObject } from 'node:crypto';

/**
 * HMAC-SHA256 of `text` under `salt`, as lower-case hex. Keyed rather than a bare sha256 because
 * short secrets and commands can be brute-forced back from an unsalted hash.
 *
 * @example
 * keyedHash(salt, 'ls -la'); // '3b1f…' (64 hex chars)
 * keyedHash(createSecretKey(salt), 'ls -la'); // the same, a little faster when reused
 */
export function keyedHash(salt: Uint8Array | KeyObject, text: string): string {
  return createHmac('sha256', salt).update(text).digest('hex');
}
