import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

/** A clock the test moves; sleeping advances it by exactly the requested time. */
function fakeTime() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleeps,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe('per-chat rate limit', () => {
  it('lets a burst of four through, then one send every 250 ms', async () => {
    const time = fakeTime();
    const limiter = new RateLimiter({ perSecond: 4, now: time.now, sleep: time.sleep });
    const at: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      await limiter.take('oc_a');
      at.push(time.now());
    }
    expect(at).toEqual([0, 0, 0, 0, 250, 500]);
  });

  it('does not slow one chat down because another is busy', async () => {
    const time = fakeTime();
    const limiter = new RateLimiter({ perSecond: 4, now: time.now, sleep: time.sleep });
    for (let i = 0; i < 4; i += 1) await limiter.take('oc_busy');
    await limiter.take('oc_quiet');
    expect(time.sleeps).toEqual([]);
  });
});
