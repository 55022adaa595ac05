import { ConfigurationError } from '@tiny-claw/core';
import { testSession } from '@tiny-claw/core/testing';
import { expect, it } from 'vitest';
import type { ContractContext } from './contract.js';

const a = testSession('/repo', 'a').key;
const b = testSession('/repo', 'b').key;

/**
 * The rules of `store.traces`.
 *
 * @example
 * describe('trace index', () => traceIndexRules(context));
 */
export function traceIndexRules(context: ContractContext): void {
  it('locates a recorded trace by id, and nothing for an id never recorded', async () => {
    const { store, writeTrace } = context();
    const path = await writeTrace(a, 'trace-1');
    await store.traces.record({ traceId: 'trace-1', sessionKey: a, path });
    expect(await store.traces.locate('trace-1')).toEqual({
      traceId: 'trace-1',
      sessionKey: a,
      path,
    });
    expect(await store.traces.locate('trace-2')).toBeUndefined();
  });

  it('lists every trace or one session’s, ordered by session key and then id', async () => {
    const { store, writeTrace } = context();
    for (const [sessionKey, traceId] of [
      [b, 't2'],
      [a, 't3'],
      [b, 't1'],
      [a, 't1x'],
    ] as const) {
      await store.traces.record({
        traceId,
        sessionKey,
        path: await writeTrace(sessionKey, traceId),
      });
    }
    expect((await store.traces.list()).map((e) => `${e.sessionKey}/${e.traceId}`)).toEqual([
      `${a}/t1x`,
      `${a}/t3`,
      `${b}/t1`,
      `${b}/t2`,
    ]);
    expect((await store.traces.list({ sessionKey: b })).map((e) => e.traceId)).toEqual([
      't1',
      't2',
    ]);
    expect(await store.traces.list({ sessionKey: testSession('/repo', 'c').key })).toEqual([]);
  });

  it('keeps one entry for a trace recorded twice', async () => {
    const { store, writeTrace } = context();
    const path = await writeTrace(a, 'trace-1');
    await store.traces.record({ traceId: 'trace-1', sessionKey: a, path });
    await store.traces.record({ traceId: 'trace-1', sessionKey: a, path });
    expect(await store.traces.list()).toHaveLength(1);
  });

  it('refuses ids and session keys that are not safe names', async () => {
    const { store } = context();
    await expect(store.traces.locate('../x')).rejects.toThrow(ConfigurationError);
    await expect(
      store.traces.record({ traceId: '../x', sessionKey: a, path: '/tmp/x.json' }),
    ).rejects.toThrow(ConfigurationError);
    await expect(
      store.traces.record({ traceId: 't', sessionKey: '../../etc', path: '/tmp/x.json' }),
    ).rejects.toThrow(ConfigurationError);
    await expect(store.traces.list({ sessionKey: '../../etc' })).rejects.toThrow(
      ConfigurationError,
    );
  });
}
