import { describe, expect, it } from 'vitest';
import { withPathLock } from './path-lock.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('withPathLock', () => {
  it('runs tasks on one path one after the other, in call order', async () => {
    const events: string[] = [];
    const task = (name: string, ms: number) => async () => {
      events.push(`${name}+`);
      await pause(ms);
      events.push(`${name}-`);
    };
    await Promise.all([withPathLock('/p', task('a', 20)), withPathLock('/p', task('b', 1))]);
    expect(events).toEqual(['a+', 'a-', 'b+', 'b-']);
  });

  it('lets tasks on different paths overlap', async () => {
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`${name}+`);
      await pause(10);
      events.push(`${name}-`);
    };
    await Promise.all([withPathLock('/x', task('x')), withPathLock('/y', task('y'))]);
    expect(events.slice(0, 2).sort()).toEqual(['x+', 'y+']);
  });

  it('releases the lock when a task fails', async () => {
    await expect(
      withPathLock('/f', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await withPathLock('/f', async () => 'next')).toBe('next');
  });
});
