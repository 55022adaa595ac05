import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateError } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { QuarantinedFileError, quarantineFile, readJsonFile } from './read-json.js';

const schema = z.object({ schemaVersion: z.literal(1), name: z.string() });

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-claw-read-json-'));
});

afterEach(async () => {
  vi.useRealTimers();
  await rm(root, { recursive: true, force: true });
});

describe('readJsonFile', () => {
  it('returns undefined when the file does not exist', async () => {
    expect(await readJsonFile(join(root, 'missing.json'), schema)).toBeUndefined();
  });

  it('returns the parsed value when it matches the schema', async () => {
    const path = join(root, 'state.json');
    await writeFile(path, JSON.stringify({ schemaVersion: 1, name: 'a' }));
    expect(await readJsonFile(path, schema)).toEqual({ schemaVersion: 1, name: 'a' });
  });

  it('quarantines corrupt JSON as <name>.unreadable-<timestamp> and throws a StateError', async () => {
    const path = join(root, 'state.json');
    await writeFile(path, '{"schemaVersion": 1, "na');
    const error = await readJsonFile(path, schema).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(StateError);
    expect(error).toBeInstanceOf(QuarantinedFileError);
    const files = await readdir(root);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^state\.json\.unreadable-\d{8}T\d{6}Z$/);
    const moved = join(root, files[0] as string);
    expect(await readFile(moved, 'utf8')).toBe('{"schemaVersion": 1, "na');
    const message = (error as QuarantinedFileError).message;
    expect(message).toContain(path);
    expect(message).toContain('not valid JSON');
    expect(message).toContain(moved);
    expect(message).toMatch(/delete it to start fresh/);
    expect((error as QuarantinedFileError).quarantinedPath).toBe(moved);
  });

  it('quarantines a file that is valid JSON but does not match the schema', async () => {
    const path = join(root, 'state.json');
    await writeFile(path, JSON.stringify({ schemaVersion: 2, name: 7 }));
    const error = await readJsonFile(path, schema).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(QuarantinedFileError);
    expect((error as Error).message).toContain('does not have the expected format');
    expect((error as Error).message).toContain('schemaVersion');
    expect((error as Error).message).toContain('name');
    const files = await readdir(root);
    expect(files).toEqual([expect.stringMatching(/^state\.json\.unreadable-/)]);
  });

  it('quarantines an empty (zero-byte) file with a message saying so', async () => {
    const path = join(root, 'state.json');
    await writeFile(path, '');
    await expect(readJsonFile(path, schema)).rejects.toThrow(/is empty/);
    expect(await readdir(root)).toEqual([expect.stringMatching(/^state\.json\.unreadable-/)]);
  });

  it('throws a StateError without moving anything when the path cannot be read', async () => {
    // A directory exists but cannot be read as a file (EISDIR): not corruption, nothing to move.
    const error = await readJsonFile(root, schema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateError);
    expect(error).not.toBeInstanceOf(QuarantinedFileError);
  });
});

describe('quarantineFile', () => {
  it('names the file after the UTC time of quarantine', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-29T22:53:00.456Z'));
    const path = join(root, 'approvals.json');
    await writeFile(path, 'x');
    expect(await quarantineFile(path)).toBe(`${path}.unreadable-20261129T225300Z`);
  });

  it('adds a counter instead of overwriting an earlier quarantined file', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-29T22:53:00Z'));
    const path = join(root, 'approvals.json');
    await writeFile(path, 'first');
    const first = await quarantineFile(path);
    await writeFile(path, 'second');
    const second = await quarantineFile(path);
    await writeFile(path, 'third');
    const third = await quarantineFile(path);

    expect(second).toBe(`${first}-1`);
    expect(third).toBe(`${first}-2`);
    expect(await readFile(first, 'utf8')).toBe('first');
    expect(await readFile(second, 'utf8')).toBe('second');
    expect(await readFile(third, 'utf8')).toBe('third');
    expect((await readdir(root)).sort()).toHaveLength(3);
  });
});
