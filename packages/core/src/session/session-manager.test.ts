import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError, StateError } from '../errors.js';
import type { Logger } from '../observe/logger.js';
import { workdirHash } from './session-key.js';
import { SessionManager } from './session-manager.js';
import { sessionMetaSchema } from './session-ref.js';

let root: string;
let stateDir: string;
let workdir: string;
let warnings: string[];
let logger: Logger;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-claw-sessions-'));
  stateDir = join(root, 'state');
  workdir = join(root, 'repo');
  await mkdir(workdir);
  warnings = [];
  logger = { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} };
});

afterEach(async () => {
  vi.useRealTimers();
  await rm(root, { recursive: true, force: true });
});

const readMeta = async (dir: string) =>
  sessionMetaSchema.parse(JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8')));

describe('SessionManager.resolveCli', () => {
  it('gives the default session the key cli-<12 hex>-default', async () => {
    const session = await new SessionManager({ stateDir, workdir }).resolveCli();
    expect(session.key).toMatch(/^cli-[0-9a-f]{12}-default$/);
    expect(session).toEqual({
      key: `cli-${workdirHash(await realpath(workdir))}-default`,
      source: 'cli',
      externalId: 'default',
      displayName: 'default',
      workdir: await realpath(workdir),
    });
  });

  it('normalizes the name into the key: "Debug Login" → cli-…-debug-login', async () => {
    const session = await new SessionManager({ stateDir, workdir }).resolveCli('Debug Login');
    expect(session.key).toMatch(/^cli-[0-9a-f]{12}-debug-login$/);
    expect(session.externalId).toBe('debug-login');
    expect(session.displayName).toBe('debug-login');
  });

  it('gives different keys to the same name in different workdirs', async () => {
    const other = join(root, 'other');
    await mkdir(other);
    const a = await new SessionManager({ stateDir, workdir }).resolveCli();
    const b = await new SessionManager({ stateDir, workdir: other }).resolveCli();
    expect(a.key).not.toBe(b.key);
  });

  it('resolves a symlinked workdir to the same session as the real one', async () => {
    const link = join(root, 'link');
    await symlink(workdir, link);
    const a = await new SessionManager({ stateDir, workdir }).resolveCli();
    const b = await new SessionManager({ stateDir, workdir: link }).resolveCli();
    expect(b.key).toBe(a.key);
    expect(b.workdir).toBe(await realpath(workdir));
  });

  it('accepts a workdir that does not exist yet, as an absolute path', async () => {
    const missing = join(root, 'not-yet');
    const session = await new SessionManager({ stateDir, workdir: missing }).resolveCli();
    expect(session.workdir).toBe(join(await realpath(root), 'not-yet'));
  });

  it('rejects a session name with control characters before touching the disk', async () => {
    const manager = new SessionManager({ stateDir, workdir });
    await expect(manager.resolveCli('bad\nname')).rejects.toThrow(ConfigurationError);
    await expect(stat(stateDir)).rejects.toThrow(/ENOENT/);
  });

  it('writes meta.json (mode 0600, dirs 0700) with every field', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-29T22:53:00.000Z'));
    const manager = new SessionManager({ stateDir, workdir });
    const session = await manager.resolveCli('Debug Login');
    const dir = manager.sessionDir(session.key);

    expect(dir).toBe(join(stateDir, 'sessions', session.key));
    expect(await readMeta(dir)).toEqual({
      schemaVersion: 1,
      ...session,
      createdAt: '2026-11-29T22:53:00.000Z',
      updatedAt: '2026-11-29T22:53:00.000Z',
    });
    expect((await readFile(join(dir, 'meta.json'), 'utf8')).endsWith('}\n')).toBe(true);
    expect((await stat(join(dir, 'meta.json'))).mode & 0o777).toBe(0o600);
    for (const d of [stateDir, join(stateDir, 'sessions'), dir]) {
      expect((await stat(d)).mode & 0o777).toBe(0o700);
    }
    expect(await readdir(dir)).toEqual(['meta.json']);
  });

  it('preserves createdAt across resolves and moves updatedAt', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const manager = new SessionManager({ stateDir, workdir });
    vi.setSystemTime(new Date('2026-01-01T00:00:00.000Z'));
    const session = await manager.resolveCli();
    vi.setSystemTime(new Date('2026-02-02T00:00:00.000Z'));
    await manager.resolveCli();

    const meta = await readMeta(manager.sessionDir(session.key));
    expect(meta.createdAt).toBe('2026-01-01T00:00:00.000Z');
    expect(meta.updatedAt).toBe('2026-02-02T00:00:00.000Z');
  });

  it('quarantines a corrupt meta.json, logs a warning and writes a fresh one', async () => {
    const manager = new SessionManager({ stateDir, workdir, logger });
    const session = await manager.resolveCli();
    const dir = manager.sessionDir(session.key);
    await writeFile(join(dir, 'meta.json'), '{"schemaVersion": 1, "key": ');

    const again = await manager.resolveCli();

    expect(again).toEqual(session);
    const files = (await readdir(dir)).sort();
    expect(files).toEqual([
      'meta.json',
      expect.stringMatching(/^meta\.json\.unreadable-\d{8}T\d{6}Z$/),
    ]);
    expect(await readFile(join(dir, files[1] as string), 'utf8')).toBe(
      '{"schemaVersion": 1, "key": ',
    );
    expect((await readMeta(dir)).key).toBe(session.key);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(join(dir, 'meta.json'));
    expect(warnings[0]).toContain('unreadable-');
  });

  it('fails with a StateError, not a silent overwrite, when meta.json cannot be read', async () => {
    const manager = new SessionManager({ stateDir, workdir, logger });
    const session = await manager.resolveCli();
    const metaPath = join(manager.sessionDir(session.key), 'meta.json');
    await rm(metaPath);
    await mkdir(metaPath);
    await expect(manager.resolveCli()).rejects.toThrow(StateError);
    expect((await stat(metaPath)).isDirectory()).toBe(true);
  });
});

describe('SessionManager.resolveFeishuChat', () => {
  it('keys a chat as feishu-<hash>-chat-<normalized id> and keeps the raw id for display', async () => {
    const session = await new SessionManager({ stateDir, workdir }).resolveFeishuChat('oc_AbC');
    expect(session.key).toBe(`feishu-${workdirHash(await realpath(workdir))}-chat-oc_abc`);
    expect(session.externalId).toBe('chat:oc_abc');
    expect(session.displayName).toBe('chat:oc_AbC');
  });
});

describe('SessionManager.sessionDir', () => {
  it.each(['../escape', 'a/b', '..', ''])(
    'refuses a key that is not a single safe name: %j',
    (key) => {
      expect(() => new SessionManager({ stateDir, workdir }).sessionDir(key)).toThrow(
        ConfigurationError,
      );
    },
  );
});
