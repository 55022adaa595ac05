import { mkdir, mkdtemp, realpath, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors.js';
import { cliSession, feishuChatSession } from './resolve-session.js';
import { sessionDirectory, workdirHash } from './session-key.js';

let root: string;
let workdir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-claw-sessions-'));
  workdir = join(root, 'repo');
  await mkdir(workdir);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('cliSession', () => {
  it('gives the default session the key cli-<12 hex>-default', async () => {
    const session = await cliSession(workdir);
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
    const session = await cliSession(workdir, 'Debug Login');
    expect(session.key).toMatch(/^cli-[0-9a-f]{12}-debug-login$/);
    expect(session.externalId).toBe('debug-login');
    expect(session.displayName).toBe('debug-login');
  });

  it('gives different keys to the same name in different workdirs', async () => {
    const other = join(root, 'other');
    await mkdir(other);
    expect((await cliSession(workdir)).key).not.toBe((await cliSession(other)).key);
  });

  it('resolves a symlinked workdir to the same session as the real one', async () => {
    const link = join(root, 'link');
    await symlink(workdir, link);
    const a = await cliSession(workdir);
    const b = await cliSession(link);
    expect(b.key).toBe(a.key);
    expect(b.workdir).toBe(await realpath(workdir));
  });

  it('accepts a workdir that does not exist yet, as an absolute path', async () => {
    const session = await cliSession(join(root, 'not-yet'));
    expect(session.workdir).toBe(join(await realpath(root), 'not-yet'));
  });

  it('rejects a session name with control characters', async () => {
    await expect(cliSession(workdir, 'bad\nname')).rejects.toThrow(ConfigurationError);
  });
});

describe('feishuChatSession', () => {
  it('keys a chat as feishu-<hash>-chat-<normalized id> and keeps the raw id for display', async () => {
    const session = await feishuChatSession(workdir, 'oc_AbC');
    expect(session.key).toBe(`feishu-${workdirHash(await realpath(workdir))}-chat-oc_abc`);
    expect(session.externalId).toBe('chat:oc_abc');
    expect(session.displayName).toBe('chat:oc_AbC');
  });
});

describe('sessionDirectory', () => {
  it.each(['../escape', 'a/b', '..', ''])(
    'refuses a key that is not a single safe name: %j',
    (key) => {
      expect(() => sessionDirectory(root, key)).toThrow(ConfigurationError);
    },
  );

  it('places a session under <stateDir>/sessions/<key> and touches nothing', async () => {
    expect(sessionDirectory(root, 'cli-1a2b3c4d5e6f-default')).toBe(
      join(root, 'sessions', 'cli-1a2b3c4d5e6f-default'),
    );
    await expect(stat(join(root, 'sessions'))).rejects.toThrow(/ENOENT/);
  });
});
