import { randomFillSync } from 'node:crypto';

// Span ids come from a pool of random bytes refilled 512 ids at a time: one system call per pool
// instead of one per span, which shows on a fast run with hundreds of spans.
const pool = Buffer.alloc(8 * 512);
let offset = pool.length;

/**
 * A new span id: 16 lower-case hex characters (8 random bytes).
 *
 * @example
 * newSpanId(); // 'a3f9c2e81b7d4f6a'
 */
export function newSpanId(): string {
  if (offset >= pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('hex', offset, offset + 8);
  offset += 8;
  return id;
}
