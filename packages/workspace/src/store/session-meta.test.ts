import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliSession, type Logger, StateError } from '@tiny-claw/core';
import { sessionMetaSchema } from '@tiny-claw/core/store';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionDirectory } from '../files/index.js';
import { writeSessionMeta } from './session-meta.js';

let root: string;
let stateDir: string;
let workdir: string;
let warnings: string[];
let logger: Logger;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-claw-session-meta-'));
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

describe('writeSessionMeta', () => {
  it('writes meta.json (mode 0600, dirs 0700) with every field', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-29T22:53:00.000Z'));
    const session = await cliSession(workdir, 'Debug Login');
    await writeSessionMeta(stateDir, session, logger);
    const dir = sessionDirectory(stateDir, session.key);
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

  it('preserves createdAt across writes and moves updatedAt', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const session = await cliSession(workdir);
    vi.setSystemTime(new Date('2026-01-01T00:00:00.000Z'));
    await writeSessionMeta(stateDir, session, logger);
    vi.setSystemTime(new Date('2026-02-02T00:00:00.000Z'));
    await writeSessionMeta(stateDir, session, logger);
    const meta = await readMeta(sessionDirectory(stateDir, session.key));
    expect(meta.createdAt).toBe('2026-01-01T00:00:00.000Z');
    expect(meta.updatedAt).toBe('2026-02-02T00:00:00.000Z');
  });

  it('quarantines a corrupt meta.json, logs a warning and writes a fresh one', async () => {
    const session = await cliSession(workdir);
    await writeSessionMeta(stateDir, session, logger);
    const dir = sessionDirectory(stateDir, session.key);
    await writeFile(join(dir, 'meta.json'), '{"schemaVersion": 1, "key": ');
    await writeSessionMeta(stateDir, session, logger);
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

  it.each([
    ['invalid JSON with a title escape', '\x1b]0;pwned\x07{"broken'],
    ['invalid JSON with a screen clear and a bidi override', '{"a": \x1b[2J\u202e}'],
    ['a key that is an escape sequence', JSON.stringify({ '\x1b]52;c;aGk=\x07': 1 })],
    ['a value that is an escape sequence', JSON.stringify({ schemaVersion: '\x1b[31m' })],
    ['a megabyte of escapes', '\x1b[2J'.repeat(250_000)],
  ])(
    'warns about a meta.json with %s quoting it escaped and short, never raw',
    async (_what, text) => {
      const session = await cliSession(workdir);
      await writeSessionMeta(stateDir, session, logger);
      await writeFile(join(sessionDirectory(stateDir, session.key), 'meta.json'), text);
      await writeSessionMeta(stateDir, session, logger);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('is unreadable');
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters.
      expect(warnings[0]).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202e]/);
      expect((warnings[0] as string).length).toBeLessThan(1_000);
    },
  );

  it('fails with a StateError, not a silent overwrite, when meta.json cannot be read', async () => {
    const session = await cliSession(workdir);
    const metaPath = join(sessionDirectory(stateDir, session.key), 'meta.json');
    await mkdir(metaPath, { recursive: true });
    await expect(writeSessionMeta(stateDir, session, logger)).rejects.toThrow(StateError);
    expect((await stat(metaPath)).isDirectory()).toBe(true);
  });
});
