import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError, type PlanStore, StateError } from '@tiny-claw/core';
import { PLAN_FILE, TODO_FILE } from '@tiny-claw/core/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore } from './file-store.js';

let stateDir: string;
let store: PlanStore;
const files = { plan: '# PLAN.md\n\nGoal', todo: '# TODO.md\n\n- [ ] TC-001 A\n- [ ] TC-002 B' };

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'tiny-claw-plan-'));
  store = createFileStore(stateDir).plans({ key: 'cli-000000000000-default' });
});
afterEach(() => rm(stateDir, { recursive: true, force: true }));

describe('the plan files of a file store', () => {
  it('keeps the plan files of a session in <stateDir>/sessions/<key>/plan', () => {
    expect(store.dir).toBe(join(stateDir, 'sessions', 'cli-000000000000-default', 'plan'));
    expect(() => createFileStore(stateDir).plans({ key: '../x' })).toThrow(ConfigurationError);
  });

  it('reads nothing until both files exist', async () => {
    expect(await store.read()).toBeUndefined();
    await store.createMissing(files);
    await rm(join(store.dir, TODO_FILE));
    expect(await store.read()).toBeUndefined();
  });

  it('creates missing files with a final newline and mode 0600, never overwriting one', async () => {
    const created = await store.createMissing(files);
    expect(created.next?.id).toBe('TC-001');
    expect(await readFile(join(store.dir, PLAN_FILE), 'utf8')).toBe('# PLAN.md\n\nGoal\n');
    expect((await stat(join(store.dir, TODO_FILE))).mode & 0o777).toBe(0o600);
    await writeFile(join(store.dir, PLAN_FILE), '# PLAN.md\n\nedited by hand\n');
    await rm(join(store.dir, TODO_FILE));
    const again = await store.createMissing({ plan: '# other', todo: '- [ ] TC-001 X' });
    expect(again.plan).toBe('# PLAN.md\n\nedited by hand\n');
    expect(again.todo).toBe('- [ ] TC-001 X\n');
  });

  it('marks items done and appends blockers without leaving temp files', async () => {
    await store.createMissing(files);
    const done = await store.markDone('TC-001');
    expect(done.next?.id).toBe('TC-002');
    const blocked = await store.appendBlocker('TC-002', 'needs a key');
    expect(blocked.next?.id).toBe('TC-002');
    expect(await readFile(join(store.dir, TODO_FILE), 'utf8')).toBe(
      '# TODO.md\n\n- [x] TC-001 A\n- [ ] TC-002 B\n\n## Blockers\n\n- TC-002: needs a key\n',
    );
    expect((await readdir(store.dir)).sort()).toEqual(['PLAN.md', 'TODO.md']);
    await expect(store.markDone('TC-404')).rejects.toThrow(StateError);
  });

  it('loses no update when several run at once', async () => {
    await store.createMissing(files);
    await Promise.all([
      store.markDone('TC-001'),
      store.appendBlocker('TC-002', 'one'),
      store.appendBlocker('TC-002', 'two'),
      store.markDone('TC-002'),
    ]);
    const todo = await readFile(join(store.dir, TODO_FILE), 'utf8');
    expect(todo).toContain('- [x] TC-001 A');
    expect(todo).toContain('- [x] TC-002 B');
    expect(todo).toContain('- TC-002: one\n- TC-002: two');
  });

  it('replaces both files for a revised plan', async () => {
    await store.createMissing(files);
    const next = await store.replace({ plan: '# PLAN.md\nv2', todo: '- [ ] TC-009 New' });
    expect(next.next?.id).toBe('TC-009');
    expect(await readFile(join(store.dir, PLAN_FILE), 'utf8')).toBe('# PLAN.md\nv2\n');
  });

  it('resets by deleting the files and says which ones it removed', async () => {
    expect(await store.reset()).toEqual([]);
    await store.createMissing(files);
    expect(await store.reset()).toEqual([join(store.dir, PLAN_FILE), join(store.dir, TODO_FILE)]);
    expect(await store.read()).toBeUndefined();
    await expect(stat(store.dir)).rejects.toThrow();
  });
});
