import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors.js';
import { testSession } from '../testing/fakes.js';
import { createMemoryStore } from './memory-state-store.js';

const session = testSession('/repo', 'default');

describe('createMemoryStore', () => {
  it('keeps each session its own memory and plan, in this process only', async () => {
    const store = createMemoryStore();
    const other = testSession('/repo', 'other');
    await store.memory(session).append([{ key: 'last_prompt', value: 'one' }]);
    expect(await store.memory(session).readRecent()).toEqual(['last_prompt: one']);
    expect(await store.memory(other).readRecent()).toEqual([]);
    await store.plans(session).createMissing({ plan: '# P\n', todo: '- [ ] TC-001 A\n' });
    expect((await store.plans(session).read())?.next?.id).toBe('TC-001');
    expect(await store.plans(other).read()).toBeUndefined();
    expect(store.usage).toBeUndefined();
  });

  it('marks plan items done and records blockers like the file store', async () => {
    const plans = createMemoryStore().plans(session);
    await plans.createMissing({ plan: '# P\n', todo: '- [ ] TC-001 A\n- [ ] TC-002 B\n' });
    await plans.markDone('TC-001');
    const blocked = await plans.appendBlocker('TC-002', 'offline');
    expect(blocked.todo).toBe(
      '- [x] TC-001 A\n- [ ] TC-002 B\n\n## Blockers\n\n- TC-002: offline\n',
    );
    expect(await plans.reset()).toHaveLength(2);
    expect(await plans.read()).toBeUndefined();
  });

  it("holds memory to the file store's rules: secrets redacted, values capped, the last 200 lines kept", async () => {
    const memory = createMemoryStore().memory({ key: 'k' });
    await memory.append([
      { key: 'last_prompt', value: 'use sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD please' },
    ]);
    await memory.append([{ key: 'last_response', value: 'y'.repeat(20_000) }]);
    const [prompt, response] = await memory.readRecent(2);
    expect(prompt).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz');
    expect(prompt).toContain('[REDACTED');
    expect(response?.length).toBeLessThan(8_100);
    for (let i = 0; i < 300; i += 1) await memory.append([{ key: 'n', value: String(i) }]);
    const all = await memory.readRecent(1000);
    expect(all).toHaveLength(200);
    expect(all.at(-1)).toBe('n: 299');
  });

  it('refuses an unsafe session key like the file store does', () => {
    expect(() => createMemoryStore().memory({ key: '../x' })).toThrow(ConfigurationError);
  });
});
