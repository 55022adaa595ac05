import { createHash } from 'node:crypto';

const TRACE_ID_LENGTH = 32;
const SPAN_ID_LENGTH = 16;

/**
 * Our trace id as a valid OTel trace id (32 lower-case hex, not all zeros). Run ids are already 32 hex
 * and pass through unchanged, so the id in a collector matches the trace file's name; UUIDs lose
 * their dashes; anything else is hashed, so the same trace always gets the same id.
 *
 * @example
 * toOtelTraceId('0af7651916cd43dd8448eb211c80319c'); // → same string
 * toOtelTraceId('run-1'); // → 32 hex chars derived from SHA-256('run-1')
 */
export function toOtelTraceId(ourId: string): string {
  return toOtelId(ourId, TRACE_ID_LENGTH);
}

/**
 * Our span id as a valid OTel span id (16 lower-case hex, not all zeros), derived the same way as
 * {@link toOtelTraceId}; parents and children map through the same function, so links survive.
 *
 * @example
 * toOtelSpanId('b7ad6b7169203331'); // → same string
 */
export function toOtelSpanId(ourId: string): string {
  return toOtelId(ourId, SPAN_ID_LENGTH);
}

function toOtelId(ourId: string, length: number): string {
  const compact = ourId.trim().toLowerCase().replaceAll('-', '');
  if (isValidHexId(compact, length)) return compact;
  const hashed = createHash('sha256').update(ourId, 'utf8').digest('hex').slice(0, length);
  // An all-zero id is invalid in OTel; a hash prefix of zeros is vanishingly rare but must not slip through.
  return isValidHexId(hashed, length) ? hashed : `${hashed.slice(0, length - 1)}1`;
}

function isValidHexId(candidate: string, length: number): boolean {
  return candidate.length === length && /^[0-9a-f]+$/.test(candidate) && /[1-9a-f]/.test(candidate);
}
