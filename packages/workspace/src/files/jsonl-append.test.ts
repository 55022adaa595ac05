import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { StateError } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendJsonLines } from './jsonl-append.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-claw-jsonl-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const read = (path: string) => readFile(path, 'utf8');

describe('appendJsonLines', () => {
  it('writes one JSON line per value, each ending in a newline', async () => {
    const path = join(root, 'log.jsonl');
    await appendJsonLines(path, [{ a: 1 }, { b: 'two\nlines' }]);
    await appendJsonLines(path, [{ c: 3 }]);
    expect(await read(path)).toBe('{"a":1}\n{"b":"two\\nlines"}\n{"c":3}\n');
  });

  it('creates missing directories 0700 and the file 0600', async () => {
    const path = join(root, 'usage', 'deep', 'log.jsonl');
    await appendJsonLines(path, [{ a: 1 }]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(root, 'usage'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(root, 'usage', 'deep'))).mode & 0o777).toBe(0o700);
  });

  it('tightens an existing file that others could read to 0600', async () => {
    const path = join(root, 'log.jsonl');
    await writeFile(path, '', { mode: 0o644 });
    await appendJsonLines(path, [{ a: 1 }]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('repairs a truncated last line before appending, keeping the partial bytes', async () => {
    const path = join(root, 'log.jsonl');
    await writeFile(path, '{"whole":1}\n{"schemaVersion":1,"ti');
    await appendJsonLines(path, [{ next: 2 }]);
    expect(await read(path)).toBe('{"whole":1}\n{"schemaVersion":1,"ti\n{"next":2}\n');
  });

  it('does not add a newline when the file already ends with one', async () => {
    const path = join(root, 'log.jsonl');
    await writeFile(path, '{"whole":1}\n');
    await appendJsonLines(path, [{ next: 2 }]);
    expect(await read(path)).toBe('{"whole":1}\n{"next":2}\n');
  });

  it('appending nothing leaves no file behind', async () => {
    const path = join(root, 'log.jsonl');
    await appendJsonLines(path, []);
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
  });

  it('100 concurrent appends of large lines produce 100 whole lines', async () => {
    const path = join(root, 'log.jsonl');
    const big = 'x'.repeat(50_000);
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        // Relative and absolute spellings of one path must share the lock.
        appendJsonLines(i % 2 === 0 ? path : relative(process.cwd(), path), [{ i, big }]),
      ),
    );
    const lines = (await read(path)).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(100);
    const seen = lines.map((line) => (JSON.parse(line) as { i: number; big: string }).i);
    expect(new Set(seen).size).toBe(100);
  });

  it('refuses a value without a JSON form, naming the file, and writes nothing', async () => {
    const path = join(root, 'log.jsonl');
    const error = await appendJsonLines(path, [{ ok: 1 }, undefined], {
      label: 'the usage file',
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateError);
    expect((error as Error).message).toContain(`Could not append to the usage file ${path}`);
    await expect(appendJsonLines(path, [{ n: 1n }])).rejects.toThrow(StateError);
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
  });

  it('a failed append reports the file and does not block the next one', async () => {
    const blocked = join(root, 'blocked');
    await writeFile(blocked, 'a file where a directory should be');
    const bad = join(blocked, 'log.jsonl');
    await expect(appendJsonLines(bad, [{ a: 1 }])).rejects.toThrow(
      `Could not append to the JSONL file ${bad}`,
    );
    const good = join(root, 'log.jsonl');
    await appendJsonLines(good, [{ a: 1 }]);
    expect(await read(good)).toBe('{"a":1}\n');
  });
});
