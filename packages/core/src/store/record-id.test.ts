import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApprovalError } from '../approval/approval-gate.js';
import { checkRecordId, recordIdPattern } from './record-id.js';

describe('record ids', () => {
  it.each([
    ['a path that climbs out', '../../etc/passwd'],
    ['an encoded path', '..%2F..%2Fetc%2Fpasswd'],
    ['a nested path', 'ap_aaaaaaaaaaaaaaaa/b'],
    ['a NUL byte', 'ap_aaaaaaaa\0aaaaaaaa'],
    ['an empty id', ''],
    ['a 200-character id', 'a'.repeat(200)],
    ['a too short id', 'ap_short'],
    ['a backslash', 'ap_aaaaaaaa\\aaaaaaaa'],
    ['a dot name', '.'.repeat(20)],
  ])('refuses %s before any path is built', (_label, id) => {
    const error = (() => {
      try {
        checkRecordId(id);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ApprovalError);
    expect((error as ApprovalError).refusal).toBe('invalid_id');
    expect((error as ApprovalError).message).toContain('not a valid approval id');
  });

  it('refuses every id that does not match the url-safe pattern (property, seed logged on failure)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (id) => {
        if (recordIdPattern.test(id)) return checkRecordId(id) === id;
        try {
          checkRecordId(id);
          return false;
        } catch (error) {
          return error instanceof ApprovalError && error.refusal === 'invalid_id';
        }
      }),
    );
  });

  it('refuses values that are not strings', () => {
    expect(() => checkRecordId(undefined)).toThrow(ApprovalError);
    expect(() => checkRecordId(42)).toThrow(ApprovalError);
  });
});
