import { describe, expect, it } from 'vitest';
import { shouldRetryStatus } from './retry-policy.js';

describe('shouldRetryStatus', () => {
  it('retries 408, 409, 429 and 5xx, nothing else', () => {
    for (const status of [408, 409, 429, 500, 502, 503, 529]) {
      expect(shouldRetryStatus(status, new Headers())).toBe(true);
    }
    for (const status of [400, 401, 403, 404, 422]) {
      expect(shouldRetryStatus(status, new Headers())).toBe(false);
    }
  });

  it('obeys the server’s x-should-retry either way', () => {
    expect(shouldRetryStatus(500, new Headers({ 'x-should-retry': 'false' }))).toBe(false);
    expect(shouldRetryStatus(400, new Headers({ 'x-should-retry': 'true' }))).toBe(true);
  });
});
