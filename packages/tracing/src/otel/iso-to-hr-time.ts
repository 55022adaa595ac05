import type { HrTime } from '@opentelemetry/api';

// Split off the fractional seconds: Date.parse keeps only milliseconds, traces may carry micro/nanos.
const ISO_FRACTION = /^(.*T\d{2}:\d{2}:\d{2})\.(\d+)(.*)$/;

/**
 * An ISO-8601 timestamp from a trace file as OTel `HrTime` (`[seconds, nanoseconds]`), keeping every
 * fractional digit up to nanoseconds. Throws on a timestamp that does not parse.
 *
 * @example
 * isoToHrTime('2025-01-02T03:04:05.123456Z'); // → [1735787045, 123456000]
 */
export function isoToHrTime(iso: string): HrTime {
  const match = ISO_FRACTION.exec(iso);
  const whole = match ? `${match[1]}${match[3]}` : iso;
  const ms = Date.parse(whole);
  if (!Number.isFinite(ms))
    throw new RangeError(`not an ISO-8601 timestamp: ${JSON.stringify(iso)}`);
  const seconds = Math.floor(ms / 1000);
  const fraction = match?.[2] ?? '';
  const nanos = Number(fraction.slice(0, 9).padEnd(9, '0'));
  return [seconds, nanos];
}

/**
 * `end - start` as `HrTime`, never negative (a clock step backwards must not produce a negative duration).
 *
 * @example
 * hrTimeDuration([10, 500], [11, 100]); // → [0, 999999600]
 */
export function hrTimeDuration(start: HrTime, end: HrTime): HrTime {
  const total = (end[0] - start[0]) * 1e9 + (end[1] - start[1]);
  if (total <= 0) return [0, 0];
  return [Math.floor(total / 1e9), total % 1e9];
}

/**
 * The later of two `HrTime`s.
 *
 * @example
 * laterHrTime([1, 0], [0, 5]); // → [1, 0]
 */
export function laterHrTime(a: HrTime, b: HrTime): HrTime {
  return a[0] > b[0] || (a[0] === b[0] && a[1] >= b[1]) ? a : b;
}
