import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError, type Logger, StateError } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSeenKeys, LEGACY_SEEN_TTL_MS, SEEN_KEYS_FILE } from './file-seen-keys.js';

const HOUR = 60 * 60 * 1000;

let dir: string;
let path: string;
let now: number;
let logged: string[];
const logger: Logger = {
  debug: () => {},
  info: () => {},
  warn: (message) => void logged.push(`warn ${message}`),
  error: (message) => void logged.push(`error ${message}`),
};
/** Every store a test opened: each writes behind its answers, so each is closed before cleanup. */
let opened: FileSeenKeys[] = [];
const open = (extra: { maxEntries?: number } = {}) => {
  const seen = new FileSeenKeys(path, { logger, clock: () => new Date(now), ...extra });
  opened.push(seen);
  return seen;
};
const fileLines = async () => (await readFile(path, 'utf8')).trim().split('\n').filter(Boolean);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiny-claw-seen-'));
  path = join(dir, SEEN_KEYS_FILE);
  now = Date.parse('2026-01-01T00:00:00.000Z');
  logged = [];
});
afterEach(async () => {
  // A store left open could still be appending while the directory is removed.
  await Promise.all(opened.map((seen) => seen.close().catch(() => {})));
  opened = [];
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

describe('the seen keys of a state dir', () => {
  it('keeps them in feishu/seen-events.jsonl, where the chat server kept its event ids', () => {
    expect(SEEN_KEYS_FILE).toBe(join('feishu', 'seen-events.jsonl'));
  });

  it('remembers keys across a restart, in a private file in a private directory', async () => {
    const first = open();
    expect(await first.remember('event:e1', 12 * HOUR)).toBe(true);
    await first.close();
    const second = open();
    expect(await second.remember('event:e1', 12 * HOUR)).toBe(false);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'feishu'))).mode & 0o777).toBe(0o700);
  });

  it('writes one line per key with when it was remembered and when it expires', async () => {
    const seen = open();
    await seen.remember('event:e1', HOUR);
    await seen.close();
    expect(await fileLines()).toEqual([JSON.stringify({ k: 'event:e1', t: now, e: now + HOUR })]);
  });

  it('writes the keys of one moment in one append, behind the answers', async () => {
    const seen = open();
    const answers = await Promise.all(['a', 'b', 'c'].map((k) => seen.remember(k, HOUR)));
    expect(answers).toEqual([true, true, true]);
    await seen.close();
    expect((await fileLines()).map((line) => JSON.parse(line).k)).toEqual(['a', 'b', 'c']);
  });

  it('forgets expired keys, and on the next start leaves them out of the file', async () => {
    const seen = open();
    await seen.remember('event:old', HOUR);
    await seen.remember('event:young', 3 * HOUR);
    await seen.close();
    now += 2 * HOUR;
    const later = open();
    expect(await later.remember('event:old', HOUR)).toBe(true);
    await later.close();
    expect((await fileLines()).map((line) => JSON.parse(line).k)).toEqual([
      'event:young',
      'event:old',
    ]);
  });

  it('keeps a line of an older server, which has no expiry, for 12 hours', async () => {
    await mkdir(join(dir, 'feishu'), { recursive: true });
    await writeFile(path, `${JSON.stringify({ k: 'message:m1', t: now })}\n`);
    now += LEGACY_SEEN_TTL_MS - 1;
    expect(await open().remember('message:m1', HOUR)).toBe(false);
    now += 1;
    expect(await open().remember('message:m1', HOUR)).toBe(true);
  });

  it('keeps a bounded number of keys, forgetting the oldest first', async () => {
    const seen = open({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) await seen.remember(key, HOUR);
    expect(await seen.remember('e', HOUR)).toBe(false);
    expect(await seen.remember('a', HOUR)).toBe(true);
  });

  it('skips a torn last line left by a crash, with a warning, and keeps the rest', async () => {
    const seen = open();
    await seen.remember('event:e1', HOUR);
    await seen.close();
    await writeFile(path, `${await readFile(path, 'utf8')}{"k":"event:e2","t":10`);
    const reopened = open();
    expect(await reopened.remember('event:e1', HOUR)).toBe(false);
    expect(await reopened.remember('event:e2', HOUR)).toBe(true);
    expect(logged.some((line) => line.includes('skipped 1 unreadable line'))).toBe(true);
  });

  it('logs a write that fails and still remembers the key in this process', async () => {
    const seen = open();
    await seen.remember('event:e1', HOUR);
    await seen.close();
    // The directory becomes a file: the next append cannot be made.
    await rm(join(dir, 'feishu'), { recursive: true });
    await writeFile(join(dir, 'feishu'), '');
    expect(await seen.remember('event:e2', HOUR)).toBe(true);
    await seen.close();
    expect(logged.some((line) => line.startsWith('error could not record seen keys'))).toBe(true);
    expect(await seen.remember('event:e2', HOUR)).toBe(false);
  });

  it('reports a file it cannot read as a StateError, and reads it again on the next call', async () => {
    await writeFile(join(dir, 'feishu'), '');
    const seen = open();
    await expect(seen.remember('event:e1', HOUR)).rejects.toThrow(StateError);
    await rm(join(dir, 'feishu'));
    expect(await seen.remember('event:e1', HOUR)).toBe(true);
  });

  it('checks its arguments before reading the file', async () => {
    await writeFile(join(dir, 'feishu'), '');
    await expect(open().remember('', HOUR)).rejects.toThrow(ConfigurationError);
  });
});
