import { describe, expect, it } from 'vitest';
import { withFileLock } from './file-lock.js';
import { ReadLedger } from './read-ledger.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('per-file lock', () => {
  it('runs calls for the same path one at a time, in call order', async () => {
    const events: string[] = [];
    const job = (name: string) => async () => {
      events.push(`start ${name}`);
      await tick();
      await tick();
      events.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([
      withFileLock('/w/a', job('1')),
      withFileLock('/w/a', job('2')),
      withFileLock('/w/a', job('3')),
    ]);
    expect(results).toEqual(['1', '2', '3']);
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('does not block other paths', async () => {
    const events: string[] = [];
    let releaseA: () => void = () => {};
    const a = withFileLock('/w/a', async () => {
      events.push('a holds');
      await new Promise<void>((resolve) => {
        releaseA = resolve;
      });
    });
    await withFileLock('/w/b', async () => {
      events.push('b ran');
    });
    releaseA();
    await a;
    expect(events).toEqual(['a holds', 'b ran']);
  });

  it('releases the lock when the holder throws', async () => {
    await expect(
      withFileLock('/w/a', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(withFileLock('/w/a', async () => 'next')).resolves.toBe('next');
  });

  it('is shared with ReadLedger.withFileLock', async () => {
    const ledger = new ReadLedger();
    const events: string[] = [];
    await Promise.all([
      ledger.withFileLock('/w/a', async () => {
        events.push('ledger start');
        await tick();
        events.push('ledger end');
      }),
      withFileLock('/w/a', async () => {
        events.push('plain');
      }),
    ]);
    expect(events).toEqual(['ledger start', 'ledger end', 'plain']);
  });
});
