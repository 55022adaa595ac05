import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors.js';
import { cliSession, resolveSession } from './resolve-session.js';
import { workdirHash } from './session-key.js';

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

describe('resolveSession', () => {
  it("keys a front end's conversation as <source>-<hash>-<normalised id> and keeps its display name", async () => {
    const session = await resolveSession({
      source: 'chat',
      workdir,
      externalId: 'room:AbC',
      displayName: 'Room AbC',
    });
    expect(session).toEqual({
      key: `chat-${workdirHash(await realpath(workdir))}-room-abc`,
      source: 'chat',
      externalId: 'room:AbC',
      displayName: 'Room AbC',
      workdir: await realpath(workdir),
    });
  });

  it.each([
    ['an upper-case source', 'Chat'],
    ['a source with a dash', 'my-chat'],
    ['an empty source', ''],
    ['a source over 32 characters', 'a'.repeat(33)],
  ])('refuses %s, naming what a source may be', async (_name, source) => {
    await expect(resolveSession({ source, workdir, externalId: 'x' })).rejects.toThrow(
      /session source .* is invalid: a session source is 1 to 32 lower-case letters/,
    );
  });

  it('refuses an empty external id', async () => {
    await expect(resolveSession({ source: 'chat', workdir, externalId: ' ' })).rejects.toThrow(
      ConfigurationError,
    );
  });
});
