import { checkRecordId } from '@tiny-claw/core/store';
import { describe, expect, it } from 'vitest';
import { newApprovalId, newCheckpointId } from './new-record-id.js';

describe('new record ids', () => {
  it('are url-safe, prefixed, at least 16 characters and carry 128 random bits', () => {
    const ids = Array.from({ length: 200 }, () => newApprovalId());
    for (const id of ids) {
      expect(id).toMatch(/^ap_[A-Za-z0-9_-]{22}$/);
      expect(checkRecordId(id)).toBe(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(newCheckpointId()).toMatch(/^cp_[A-Za-z0-9_-]{22}$/);
  });
});
