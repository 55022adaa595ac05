import { afterEach, describe, expect, it, vi } from 'vitest';
import { sleep } from './sleep.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('sleep', () => {
  it('resolves once its time has passed, not before', async () => {
    vi.useFakeTimers();
    let done = false;
    const pending = sleep(1_000).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(done).toBe(true);
  });

  it('rejects with the signal reason as soon as it aborts, without waiting for the timer', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const reason = new Error('stop');
    const pending = sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once on an already-aborted signal', async () => {
    await expect(sleep(10, AbortSignal.abort('gone'))).rejects.toBe('gone');
  });
});
