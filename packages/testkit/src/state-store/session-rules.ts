import { ConfigurationError } from '@tiny-claw/core';
import { testSession } from '@tiny-claw/core/testing';
import { expect, it } from 'vitest';
import type { ContractContext } from './contract.js';

const session = testSession('/repo', 'default');
const other = testSession('/repo', 'other');

/**
 * The rules of `saveSession`, `memory` and `plans`.
 *
 * @example
 * describe('sessions, memory and plans', () => sessionRules(context));
 */
export function sessionRules(context: ContractContext): void {
  it('records a session any number of times', async () => {
    const { store } = context();
    await store.saveSession(session);
    await store.saveSession(session);
    await store.saveSession(other);
  });

  it('refuses a session key that could escape its place, before touching anything', async () => {
    const { store } = context();
    const evil = { ...session, key: '../../etc' };
    await expect(store.saveSession(evil)).rejects.toThrow(ConfigurationError);
    expect(() => store.memory(evil)).toThrow(ConfigurationError);
    expect(() => store.plans(evil)).toThrow(ConfigurationError);
  });

  it('gives memory lines back as "key: value", the most recent last, each session its own', async () => {
    const { store } = context();
    await store.memory(session).append([
      { key: 'last_prompt', value: 'one' },
      { key: 'last_response', value: 'two' },
    ]);
    await store.memory(session).append([{ key: 'last_prompt', value: 'three' }]);
    expect(await store.memory(session).readRecent(2)).toEqual([
      'last_response: two',
      'last_prompt: three',
    ]);
    expect(await store.memory(session).readRecent(0)).toEqual([]);
    expect(await store.memory(other).readRecent()).toEqual([]);
  });

  it('keeps memory redacted, each value capped, and drops old lines past the last 200', async () => {
    const { store } = context();
    const memory = store.memory(session);
    await memory.append([
      { key: 'last_prompt', value: 'use sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD please' },
    ]);
    await memory.append([{ key: 'last_response', value: 'y'.repeat(20_000) }]);
    const [prompt, response] = await memory.readRecent(2);
    expect(prompt).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz');
    expect(prompt).toContain('[REDACTED');
    expect(response?.length).toBeLessThan(8_100);
    for (let i = 0; i < 450; i += 1) await memory.append([{ key: 'n', value: String(i) }]);
    const kept = await memory.readRecent(1000);
    expect(kept.length).toBeLessThanOrEqual(400);
    expect(kept.length).toBeGreaterThanOrEqual(200);
    expect(kept.at(-1)).toBe('n: 449');
    expect(kept).not.toContain('n: 0');
  });

  it('round-trips a plan: created, read, items done, blockers added, replaced and reset', async () => {
    const { store } = context();
    const plans = store.plans(session);
    expect(await plans.read()).toBeUndefined();
    const created = await plans.createMissing({
      plan: '# PLAN.md\n',
      todo: '- [ ] TC-001 A\n- [ ] TC-002 B',
    });
    expect(created.next?.id).toBe('TC-001');
    expect(await store.plans(other).read()).toBeUndefined();
    expect((await plans.createMissing({ plan: '# other\n', todo: '- [ ] TC-009 X\n' })).plan).toBe(
      '# PLAN.md\n',
    );
    expect((await plans.markDone('TC-001')).next?.id).toBe('TC-002');
    const blocked = await plans.appendBlocker('TC-002', 'offline');
    expect(blocked.todo).toBe(
      '- [x] TC-001 A\n- [ ] TC-002 B\n\n## Blockers\n\n- TC-002: offline\n',
    );
    expect((await store.plans(session).read())?.todo).toBe(blocked.todo);
    const replaced = await plans.replace({ plan: '# v2\n', todo: '- [ ] TC-003 C\n' });
    expect(replaced.items.map((item) => item.id)).toEqual(['TC-003']);
    expect(await plans.reset()).toHaveLength(2);
    expect(await plans.read()).toBeUndefined();
    await expect(plans.markDone('TC-003')).rejects.toThrow();
  });
}
