import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '@tiny-claw/core';
import { testSession } from '@tiny-claw/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore } from './file-store.js';
import { usageFilePath } from './file-usage-recorder.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-claw-store-'));
});
afterEach(() => rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));

const session = testSession('/repo', 'default');

describe('createFileStore', () => {
  it('lays out a session as sessions/<key>/{meta.json,memory.jsonl,plan/} and usage in usage/', async () => {
    const store = createFileStore(root);
    expect(store.dir).toBe(root);
    await store.saveSession(session);
    await store.memory(session).append([{ key: 'last_prompt', value: 'hi' }]);
    await store.plans(session).createMissing({ plan: '# PLAN.md\n', todo: '- [ ] TC-001 A\n' });
    const dir = join(root, 'sessions', session.key);
    expect((await readdir(dir)).sort()).toEqual(['memory.jsonl', 'meta.json', 'plan']);
    expect((await readdir(join(dir, 'plan'))).sort()).toEqual(['PLAN.md', 'TODO.md']);
    expect((await stat(join(dir, 'memory.jsonl'))).mode & 0o777).toBe(0o600);
    expect(usageFilePath(root)).toBe(join(root, 'usage', 'model-calls.jsonl'));
  });

  it('refuses a session key that would escape the sessions directory, before any file access', async () => {
    const store = createFileStore(root);
    const evil = { ...session, key: '../../etc' };
    expect(() => store.memory(evil)).toThrow(ConfigurationError);
    expect(() => store.plans(evil)).toThrow(ConfigurationError);
    await expect(store.saveSession(evil)).rejects.toThrow(ConfigurationError);
    expect(await readdir(root)).toEqual([]);
  });

  it('reads a state dir written before the state store, byte for byte', async () => {
    const dir = join(root, 'sessions', session.key);
    const traces = join(dir, 'traces');
    await mkdir(join(dir, 'plan'), { recursive: true });
    await mkdir(traces, { recursive: true });
    await mkdir(join(root, 'feishu'), { recursive: true });
    await writeFile(
      join(dir, 'memory.jsonl'),
      '{"schemaVersion":1,"key":"last_prompt","value":"hi","at":"2026-01-01T00:00:00.000Z"}\n',
    );
    await writeFile(join(dir, 'plan', 'PLAN.md'), '# PLAN.md\n');
    await writeFile(join(dir, 'plan', 'TODO.md'), '- [ ] TC-001 A\n');
    await writeFile(join(traces, '5f0c2a9e.json'), '{}\n');
    const now = Date.parse('2026-01-01T00:00:00.000Z');
    await writeFile(join(root, 'feishu', 'seen-events.jsonl'), `{"k":"event:e1","t":${now}}\n`);

    const store = createFileStore(root, { clock: () => new Date(now + 60_000) });
    expect(await store.memory(session).readRecent()).toEqual(['last_prompt: hi']);
    expect((await store.plans(session).read())?.next?.id).toBe('TC-001');
    expect(await store.traces.locate('5f0c2a9e')).toEqual({
      traceId: '5f0c2a9e',
      sessionKey: session.key,
      path: join(traces, '5f0c2a9e.json'),
    });
    // A line of the old server has no expiry of its own: it is kept for 12 hours.
    expect(await store.seen.remember('event:e1', 1000)).toBe(false);
    await store.close();
    expect(await readFile(join(dir, 'plan', 'TODO.md'), 'utf8')).toBe('- [ ] TC-001 A\n');
  });
});
