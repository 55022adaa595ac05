import { z } from 'zod';
import { ApprovalError } from '../approval/approval-gate.js';

/**
 * What every approval and checkpoint id looks like: 16–64 url-safe characters, so an id is always
 * a single, harmless file name (no `/`, `\`, `.`, NUL or empty name can reach a path join).
 *
 * @example
 * recordIdPattern.test('ap_Q2xhd0FwcHJvdmFsSWQx'); // true
 * recordIdPattern.test('../../etc/passwd'); // false
 */
export const recordIdPattern = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * Schema of an approval or checkpoint id read back from disk.
 *
 * @example
 * recordIdSchema.parse('cp_Q2hlY2twb2ludElkMTIz');
 */
export const recordIdSchema = z.string().regex(recordIdPattern);

/**
 * Check an id given by a person or read from a file before it becomes part of a path, and return it.
 *
 * @throws ApprovalError `invalid_id` naming the id (quoted, cut short) and the rule.
 *
 * @example
 * checkRecordId('ap_Q2xhd0FwcHJvdmFsSWQx'); // returns the id
 * checkRecordId('a/b'); // throws
 */
export function checkRecordId(id: unknown, what = 'approval'): string {
  if (typeof id === 'string' && recordIdPattern.test(id)) return id;
  const shown = typeof id === 'string' ? quoted(id) : String(id);
  throw new ApprovalError(
    'invalid_id',
    `${shown} is not a valid ${what} id: an id has 16 to 64 letters, digits, "_" or "-" ` +
      `(copy it exactly as it was shown, e.g. ap_0bX3kR9…).`,
  );
}

/** JSON-quoted so control characters show, and cut so a huge value does not flood the terminal. */
function quoted(value: string): string {
  return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}…` : JSON.stringify(value);
}
