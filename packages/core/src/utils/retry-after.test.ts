import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  honouredRetryAfterMs,
  MAX_RETRY_DELAY_MS,
  parseRetryAfterMs,
  retryDelayMs,
} from './retry-after.js';

const noJitter = () => 0;
const fullJitter = () => 1;

describe('parseRetryAfterMs', () => {
  it('reads retry-after-ms first, then retry-after as seconds, then as an HTTP date', () => {
    const headers = (init: Record<string, string>) => new Headers(init);
    expect(parseRetryAfterMs(headers({ 'retry-after-ms': '1500', 'retry-after': '9' }))).toBe(1500);
    expect(parseRetryAfterMs(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfterMs(headers({ 'retry-after': '0.5' }))).toBe(500);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(
      parseRetryAfterMs(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now),
    ).toBe(3000);
  });

  it('returns undefined for no header or an unusable one, and passes odd values through', () => {
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
    expect(parseRetryAfterMs(new Headers())).toBeUndefined();
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfterMs(new Headers({ 'retry-after-ms': 'x', 'retry-after': '1' }))).toBe(
      1000,
    );
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '-5' }))).toBe(-5000);
  });
});

describe('honouredRetryAfterMs', () => {
  it('honours a hint of up to 8 s as sent', () => {
    expect(honouredRetryAfterMs(20)).toBe(20);
    expect(honouredRetryAfterMs(8_000)).toBe(8_000);
  });

  it('cuts a hint between 8 s and 60 s to 8 s', () => {
    expect(honouredRetryAfterMs(30_000)).toBe(MAX_RETRY_DELAY_MS);
    expect(honouredRetryAfterMs(60_000)).toBe(MAX_RETRY_DELAY_MS);
  });

  it('ignores a larger, a zero, a negative or a missing hint', () => {
    for (const hint of [60_001, 3_600_000, 0, -5_000, Number.NaN, undefined]) {
      expect(honouredRetryAfterMs(hint)).toBeUndefined();
    }
  });
});

describe('retryDelayMs', () => {
  it('uses the honoured hint', () => {
    expect(retryDelayMs(new Headers({ 'retry-after': '1' }), 0)).toBe(1000);
    expect(retryDelayMs(new Headers({ 'retry-after-ms': '20', 'retry-after': '5' }), 0)).toBe(20);
    expect(retryDelayMs(new Headers({ 'retry-after': '30' }), 0)).toBe(MAX_RETRY_DELAY_MS);
  });

  it('falls back to the backoff when the hint is ignored or absent', () => {
    for (const after of ['3600', '86400', '-5', '0', 'soon']) {
      expect(retryDelayMs(new Headers({ 'retry-after': after }), 2, noJitter)).toBe(2000);
    }
    expect(retryDelayMs(undefined, 0, noJitter)).toBe(500);
  });
});

describe('backoffMs', () => {
  it('doubles from 0.5 s up to 8 s and shortens each wait by up to a quarter', () => {
    expect(backoffMs(0, noJitter)).toBe(500);
    expect(backoffMs(1, noJitter)).toBe(1000);
    expect(backoffMs(2, noJitter)).toBe(2000);
    expect(backoffMs(10, noJitter)).toBe(8000);
    expect(backoffMs(-1, noJitter)).toBe(500);
    expect(backoffMs(0, fullJitter)).toBe(375);
  });
});
