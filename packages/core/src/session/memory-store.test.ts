import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileMemoryStore, memoryLineSchema } from './memory-store.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-claw-memory-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const linesOf = async (path: string) => (await readFile(path, 'utf8')).split('\n');
const entry = (i: number) => ({ key: `k${i}`, value: `v${i}` });

describe('FileMemoryStore', () => {
  it('stores memory.jsonl in the given directory', () => {
    expect(new FileMemoryStore(root).path).toBe(join(root, 'memory.jsonl'));
  });

  it('returns an empty list when nothing was remembered yet', async () => {
    expect(await new FileMemoryStore(join(root, 'none')).readRecent()).toEqual([]);
  });

  it('reads back appended entries as "<key>: <value>" in file order', async () => {
    const memory = new FileMemoryStore(root);
    await memory.append([
      { key: 'last_prompt', value: 'fix the test' },
      { key: 'last_response', value: 'done' },
    ]);
    await memory.append([{ key: 'last_prompt', value: 'next' }]);
    expect(await memory.readRecent()).toEqual([
      'last_prompt: fix the test',
      'last_response: done',
      'last_prompt: next',
    ]);
  });

  it('writes versioned lines that match memoryLineSchema', async () => {
    const memory = new FileMemoryStore(root);
    await memory.append([{ key: 'a', value: 'line\nbreak "quoted"' }]);
    const [line, rest] = await linesOf(memory.path);
    expect(rest).toBe('');
    const parsed = memoryLineSchema.parse(JSON.parse(line as string));
    expect(parsed).toMatchObject({ schemaVersion: 1, key: 'a', value: 'line\nbreak "quoted"' });
  });

  it('creates the file 0600 inside a 0700 directory', async () => {
    const dir = join(root, 'sessions', 'cli-x-default');
    const memory = new FileMemoryStore(dir);
    await memory.append([entry(1)]);
    expect((await stat(memory.path)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(root, 'sessions'))).mode & 0o777).toBe(0o700);
  });

  it('tightens an existing memory file that others could read to 0600', async () => {
    const memory = new FileMemoryStore(root);
    await writeFile(memory.path, '', { mode: 0o644 });
    await memory.append([entry(1)]);
    expect((await stat(memory.path)).mode & 0o777).toBe(0o600);
  });

  it('returns only the last 5 of 8 lines by default', async () => {
    const memory = new FileMemoryStore(root);
    for (let i = 1; i <= 8; i += 1) await memory.append([entry(i)]);
    expect(await memory.readRecent()).toEqual(['k4: v4', 'k5: v5', 'k6: v6', 'k7: v7', 'k8: v8']);
    expect(await memory.readRecent(2)).toEqual(['k7: v7', 'k8: v8']);
    expect(await memory.readRecent(100)).toHaveLength(8);
    expect(await memory.readRecent(0)).toEqual([]);
  });

  it('skips blank, invalid, non-object and empty lines, which still count towards the limit', async () => {
    const memory = new FileMemoryStore(root);
    await writeFile(
      memory.path,
      [
        '{"key":"old","value":"dropped by the limit"}',
        '',
        'not json',
        '[1,2]',
        '"a string"',
        '{"key":"","value":""}',
        '{"key":7,"value":"wrong type"}',
        '{"schemaVersion":2,"key":"future","value":"unknown format"}',
        '{"key":"kept","value":"yes"}',
        '',
      ].join('\n'),
    );
    expect(await memory.readRecent(8)).toEqual(['kept: yes']);
    expect(await memory.readRecent(9)).toEqual(['old: dropped by the limit', 'kept: yes']);
  });

  it('accepts the original tiny-claw lines without schemaVersion or timestamp', async () => {
    const memory = new FileMemoryStore(root);
    await writeFile(
      memory.path,
      '{"key": "last_prompt", "value": "\\u4f60\\u597d"}\n{"key": "last_response", "value": "hi"}\n{"key": "only_key"}\n',
    );
    await memory.append([{ key: 'last_prompt', value: 'new' }]);
    expect(await memory.readRecent()).toEqual([
      'last_prompt: 你好',
      'last_response: hi',
      'only_key: ',
      'last_prompt: new',
    ]);
  });

  it('repairs a truncated last line before appending, keeping the partial bytes', async () => {
    const memory = new FileMemoryStore(root);
    await writeFile(memory.path, '{"key":"whole","value":"1"}\n{"key":"a"');
    await memory.append([
      { key: 'last_prompt', value: 'p' },
      { key: 'last_response', value: 'r' },
    ]);

    const lines = await linesOf(memory.path);
    expect(lines[0]).toBe('{"key":"whole","value":"1"}');
    expect(lines[1]).toBe('{"key":"a"');
    expect(lines).toHaveLength(5);
    expect(await memory.readRecent()).toEqual(['whole: 1', 'last_prompt: p', 'last_response: r']);
  });

  it('does not add a newline when the file already ends with one', async () => {
    const memory = new FileMemoryStore(root);
    await memory.append([entry(1)]);
    await memory.append([entry(2)]);
    expect(await linesOf(memory.path)).toHaveLength(3);
    expect((await readFile(memory.path, 'utf8')).includes('\n\n')).toBe(false);
  });

  it('50 concurrent appends produce 50 whole, un-interleaved pairs', async () => {
    const memory = new FileMemoryStore(root);
    const big = 'x'.repeat(20_000);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        // A second store on the same file must share the lock.
        (i % 2 === 0 ? memory : new FileMemoryStore(root)).append([
          { key: `prompt${i}`, value: big },
          { key: `response${i}`, value: big },
        ]),
      ),
    );

    const lines = (await linesOf(memory.path)).filter((line) => line !== '');
    expect(lines).toHaveLength(100);
    const keys = lines.map((line) => memoryLineSchema.parse(JSON.parse(line)).key);
    for (let i = 0; i < 100; i += 2) {
      expect(keys[i + 1]).toBe(keys[i]?.replace('prompt', 'response'));
    }
    expect(new Set(keys).size).toBe(100);
  });

  it('an append after a failed append still runs', async () => {
    const blocked = join(root, 'blocked');
    await writeFile(blocked, 'a file where a directory should be');
    const memory = new FileMemoryStore(join(blocked, 'session'));
    await expect(memory.append([entry(1)])).rejects.toThrow(/Could not append/);
    const ok = new FileMemoryStore(root);
    await ok.append([entry(2)]);
    expect(await ok.readRecent()).toEqual(['k2: v2']);
  });

  it('finds the last lines of a 20 MB file', async () => {
    const memory = new FileMemoryStore(root);
    const filler = `${JSON.stringify({ key: 'filler', value: 'y'.repeat(1000) })}\n`;
    await writeFile(memory.path, filler.repeat(Math.ceil((20 * 1024 * 1024) / filler.length)));
    for (let i = 1; i <= 8; i += 1) await memory.append([entry(i)]);
    expect((await stat(memory.path)).size).toBeGreaterThan(20 * 1024 * 1024);
    expect(await memory.readRecent(5)).toEqual(['k4: v4', 'k5: v5', 'k6: v6', 'k7: v7', 'k8: v8']);
  });

  it('decodes multi-byte characters intact across 64 KiB chunk boundaries', async () => {
    const memory = new FileMemoryStore(root);
    // Lines of ~90 KB of 3-byte characters: every chunk edge falls inside one of them.
    const values = [1, 2, 3, 4, 5, 6].map((i) => `${i}${'名'.repeat(30_000 + i)}`);
    for (const [i, value] of values.entries()) await memory.append([{ key: `k${i}`, value }]);
    const recent = await memory.readRecent(5);
    expect(recent).toEqual(values.slice(1).map((value, i) => `k${i + 1}: ${value}`));
  });

  it('reads a last line that has no trailing newline', async () => {
    const memory = new FileMemoryStore(root);
    await writeFile(memory.path, '{"key":"a","value":"1"}\n');
    await appendFile(memory.path, '{"key":"b","value":"2"}');
    expect(await memory.readRecent(1)).toEqual(['b: 2']);
    expect(await memory.readRecent(2)).toEqual(['a: 1', 'b: 2']);
  });
});
