import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compare two secrets (a signature, a token) in constant time, whatever their lengths: both are
 * hashed first, so `timingSafeEqual` always sees equal-length buffers and a length mismatch can
 * neither throw nor show in the timing.
 *
 * @example
 * safeEqual(given, expected); // false for '', a 63-character or an upper-case signature
 */
export function safeEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && given === expected;
}
