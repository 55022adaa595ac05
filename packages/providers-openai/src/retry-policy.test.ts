import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  MAX_RETRY_DELAY_MS,
  retryDelayMs,
  shouldRetryStatus,
  sleep,
} from './retry-policy.js';

const noJitter = () => 0;
const fullJitter = () => 1;

describe('shouldRetryStatus', () => {
  it('retries 408, 409, 429 and 5xx, nothing else', () => {
    for (const status of [408, 409, 429, 500, 502, 503, 529]) {
      expect(shouldRetryStatus(status, new Headers())).toBe(true);
    }
    for (const status of [400, 401, 403, 404, 422]) {
      expect(shouldRetryStatus(status, new Headers())).toBe(false);
    }
  });

  it('obeys x-should-retry either way (P4)', () => {
    expect(shouldRetryStatus(500, new Headers({ 'x-should-retry': 'false' }))).toBe(false);
    expect(shouldRetryStatus(400, new Headers({ 'x-should-retry': 'true' }))).toBe(true);
  });
});

describe('retryDelayMs (P1, P2)', () => {
  it('honours retry-after in seconds and retry-after-ms', () => {
    expect(retryDelayMs(new Headers({ 'retry-after': '1' }), 0)).toBe(1000);
    expect(retryDelayMs(new Headers({ 'retry-after-ms': '1500' }), 0)).toBe(1500);
    expect(retryDelayMs(new Headers({ 'retry-after-ms': '20', 'retry-after': '5' }), 0)).toBe(20);
  });

  it('honours retry-after as an HTTP date', () => {
    const inThree = new Date(Date.now() + 3_000).toUTCString();
    const delay = retryDelayMs(new Headers({ 'retry-after': inThree }), 0);
    expect(delay).toBeGreaterThan(1_000);
    expect(delay).toBeLessThanOrEqual(3_000);
  });

  it('never waits more than 8 s, whatever the server asks', () => {
    expect(retryDelayMs(new Headers({ 'retry-after': '30' }), 0)).toBe(MAX_RETRY_DELAY_MS);
    for (const after of ['3600', '86400', '-5', '0', 'soon']) {
      const delay = retryDelayMs(new Headers({ 'retry-after': after }), 5, noJitter);
      expect(delay).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
    }
  });

  it('falls back to jittered exponential backoff capped at 8 s', () => {
    expect(retryDelayMs(undefined, 0, noJitter)).toBe(500);
    expect(backoffMs(1, noJitter)).toBe(1000);
    expect(backoffMs(2, noJitter)).toBe(2000);
    expect(backoffMs(10, noJitter)).toBe(8000);
    expect(backoffMs(0, fullJitter)).toBe(375);
  });
});

describe('sleep', () => {
  it('rejects with the signal reason as soon as it aborts', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const pending = sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('rejects at once on an already-aborted signal and resolves otherwise', async () => {
    await expect(sleep(10, AbortSignal.abort('gone'))).rejects.toBe('gone');
    await expect(sleep(1)).resolves.toBeUndefined();
  });
});
