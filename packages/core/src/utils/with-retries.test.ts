import { describe, expect, it } from 'vitest';
import { MAX_RETRY_DELAY_MS } from './retry-after.js';
import { isRetryableStatus, type RetryOptions, withRetries } from './with-retries.js';

/** A failure carrying what an SDK's HTTP error carries. */
class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly headers = new Headers(),
  ) {
    super(`HTTP ${status}`);
  }
}

const policy = (waits: number[], extra: Partial<RetryOptions> = {}): RetryOptions => ({
  maxRetries: 2,
  isRetryable: (error) => error instanceof HttpFailure && isRetryableStatus(error.status),
  retryAfter: (error) => (error instanceof HttpFailure ? error.headers : undefined),
  sleep: async (ms) => {
    waits.push(ms);
  },
  random: () => 0,
  ...extra,
});

/** An attempt that throws the given failures in turn, then answers 'ok'. */
function script(...failures: Error[]) {
  const seen: number[] = [];
  const attempt = async (retries: number) => {
    seen.push(retries);
    const next = failures.shift();
    if (next) throw next;
    return 'ok';
  };
  return { attempt, seen };
}

describe('withRetries', () => {
  it('returns the first success and tells each attempt how many retries came before it', async () => {
    const waits: number[] = [];
    const { attempt, seen } = script(new HttpFailure(500), new HttpFailure(503));
    await expect(withRetries(attempt, policy(waits))).resolves.toBe('ok');
    expect(seen).toEqual([0, 1, 2]);
  });

  it('rethrows the last error unchanged after maxRetries retries', async () => {
    const last = new HttpFailure(500);
    const { attempt, seen } = script(new HttpFailure(500), new HttpFailure(500), last);
    await expect(withRetries(attempt, policy([]))).rejects.toBe(last);
    expect(seen).toHaveLength(3);
  });

  it.each([0, 1, 3])('makes exactly maxRetries + 1 attempts at most (maxRetries %i)', async (n) => {
    const failures = Array.from({ length: 10 }, () => new HttpFailure(429));
    const { attempt, seen } = script(...failures);
    await expect(withRetries(attempt, policy([], { maxRetries: n }))).rejects.toBeInstanceOf(
      HttpFailure,
    );
    expect(seen).toHaveLength(n + 1);
  });

  it('does not retry an error isRetryable rejects', async () => {
    const refused = new HttpFailure(400);
    const { attempt, seen } = script(refused);
    await expect(withRetries(attempt, policy([]))).rejects.toBe(refused);
    expect(seen).toEqual([0]);
  });

  it.each([
    ['retry-after in seconds is honoured', { 'retry-after': '2' }, 2_000],
    ['retry-after-ms wins over retry-after', { 'retry-after-ms': '150', 'retry-after': '9' }, 150],
    ['a hint above the cap is cut to it', { 'retry-after': '30' }, MAX_RETRY_DELAY_MS],
    ['an hour is a quota reset: backoff instead', { 'retry-after': '3600' }, 500],
    ['no hint: backoff', {}, 500],
  ])('waits per the retry-after policy: %s', async (_rule, headers, expected) => {
    const waits: number[] = [];
    const { attempt } = script(new HttpFailure(429, new Headers(headers)));
    await withRetries(attempt, policy(waits));
    expect(waits).toEqual([expected]);
  });

  it('backs off exponentially between attempts without a hint', async () => {
    const waits: number[] = [];
    const { attempt } = script(new HttpFailure(500), new HttpFailure(500), new HttpFailure(500));
    await withRetries(attempt, policy(waits, { maxRetries: 3 }));
    expect(waits).toEqual([500, 1_000, 2_000]);
  });

  it('an abort during the wait rejects with the signal reason and makes no further attempt', async () => {
    const controller = new AbortController();
    const { attempt, seen } = script(new HttpFailure(429));
    const run = withRetries(attempt, {
      ...policy([]),
      signal: controller.signal,
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason));
          controller.abort('stop');
        }),
    });
    await expect(run).rejects.toBe('stop');
    expect(seen).toEqual([0]);
  });

  it('an abort that makes the attempt fail rejects with the signal reason, not the failure', async () => {
    const controller = new AbortController();
    const run = withRetries(
      async () => {
        controller.abort('user stop');
        throw new HttpFailure(500);
      },
      { ...policy([]), signal: controller.signal },
    );
    await expect(run).rejects.toBe('user stop');
  });

  it('an already-aborted signal makes no attempt', async () => {
    const { attempt, seen } = script();
    await expect(
      withRetries(attempt, { ...policy([]), signal: AbortSignal.abort('early') }),
    ).rejects.toBe('early');
    expect(seen).toEqual([]);
  });
});

describe('isRetryableStatus', () => {
  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [502, true],
    [503, true],
    [529, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [413, false],
    [422, false],
  ])('status %i → %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });

  it.each([
    [500, 'false', false],
    [400, 'true', true],
  ])('x-should-retry wins: %i with %s → %s', (status, hint, expected) => {
    expect(isRetryableStatus(status, new Headers({ 'x-should-retry': hint }))).toBe(expected);
  });
});
