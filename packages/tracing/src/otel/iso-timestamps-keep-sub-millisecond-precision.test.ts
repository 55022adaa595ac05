import { describe, expect, it } from 'vitest';
import { hrTimeDuration, isoToHrTime, laterHrTime } from './iso-to-hr-time.js';

const BASE = Date.parse('2025-01-02T03:04:05Z') / 1000;

describe('ISO timestamps convert to HrTime without losing sub-millisecond digits', () => {
  it.each([
    ['2025-01-02T03:04:05Z', [BASE, 0]],
    ['2025-01-02T03:04:05.1Z', [BASE, 100_000_000]],
    ['2025-01-02T03:04:05.123Z', [BASE, 123_000_000]],
    ['2025-01-02T03:04:05.123456Z', [BASE, 123_456_000]],
    ['2025-01-02T03:04:05.123456789Z', [BASE, 123_456_789]],
    ['2025-01-02T03:04:05.1234567891Z', [BASE, 123_456_789]],
    ['2025-01-02T11:04:05.5+08:00', [BASE, 500_000_000]],
  ])('%s', (iso, expected) => {
    expect(isoToHrTime(iso)).toEqual(expected);
  });

  it('rejects what is not a timestamp', () => {
    expect(() => isoToHrTime('soon')).toThrow(RangeError);
  });

  it('durations never go negative and the later time wins', () => {
    expect(hrTimeDuration([10, 500], [11, 100])).toEqual([0, 999_999_600]);
    expect(hrTimeDuration([11, 0], [10, 0])).toEqual([0, 0]);
    expect(laterHrTime([1, 0], [0, 5])).toEqual([1, 0]);
    expect(laterHrTime([1, 0], [1, 5])).toEqual([1, 5]);
  });
});
