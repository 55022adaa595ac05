import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileMemoryStore, memoryLineSchema } from './file-memory-store.js';

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

  it('reads the last lines of a 20 MB file without reading the whole file', async () => {
    const memory = new FileMemoryStore(root);
    const filler = `${JSON.stringify({ key: 'filler', value: 'y'.repeat(1000) })}\n`;
    const tail = [1, 2, 3, 4, 5, 6].map((i) => JSON.stringify(entry(i))).join('\n');
    await writeFile(
      memory.path,
      filler.repeat(Math.ceil((20 * 1024 * 1024) / filler.length)) + tail,
    );
    expect(await memory.readRecent(5)).toEqual(['k2: v2', 'k3: v3', 'k4: v4', 'k5: v5', 'k6: v6']);
  });

  it('decodes multi-byte characters intact across 64 KiB chunk boundaries', async () => {
    const memory = new FileMemoryStore(root);
    // Lines of ~90 KB of 3-byte characters (written by an older version, uncapped): every chunk
    // edge falls inside one of them. Values come back capped, their start intact.
    const values = [1, 2, 3, 4, 5, 6].map((i) => `${i}${'名'.repeat(30_000 + i)}`);
    await writeFile(
      memory.path,
      values.map((value, i) => `${JSON.stringify({ key: `k${i}`, value })}\n`).join(''),
    );
    const recent = await memory.readRecent(5);
    expect(recent).toEqual(
      values
        .slice(1)
        .map(
          (value, i) =>
            `k${i + 1}: ${value.slice(0, 8000)} … [cut: ${(value.length - 8000).toLocaleString('en-US')} more chars]`,
        ),
    );
  });

  it('reads a last line that has no trailing newline', async () => {
    const memory = new FileMemoryStore(root);
    await writeFile(memory.path, '{"key":"a","value":"1"}\n');
    await appendFile(memory.path, '{"key":"b","value":"2"}');
    expect(await memory.readRecent(1)).toEqual(['b: 2']);
    expect(await memory.readRecent(2)).toEqual(['a: 1', 'b: 2']);
  });
});

// Secret-shaped values are assembled at run time so no credential-like literal sits in the repository.
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const spread = (length: number, step: number, alphabet = ALNUM): string =>
  Array.from({ length }, (_, i) => alphabet[(i * step + 3) % alphabet.length]).join('');
const openaiKey = `sk-${'proj'}-${spread(48, 11)}`;
const awsKey = `AK${'IA'}${spread(16, 5, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;

describe('memory file privacy and bounds', () => {
  it('never writes a credential: values pass the secret rules before they reach the file', async () => {
    const memory = new FileMemoryStore(root);
    await memory.append([
      { key: 'last_prompt', value: `use ${openaiKey} please` },
      { key: 'last_response', value: `keys: ${openaiKey} and ${awsKey}` },
    ]);
    const text = await readFile(memory.path, 'utf8');
    expect(text).not.toContain(openaiKey);
    expect(text).not.toContain(awsKey);
    expect(await memory.readRecent()).toEqual([
      'last_prompt: use [REDACTED:openai-api-key] please',
      'last_response: keys: [REDACTED:openai-api-key] and [REDACTED:aws-access-key-id]',
    ]);
  });

  it('caps a prompt and a response at 8,000 characters each and marks what was cut', async () => {
    const memory = new FileMemoryStore(root);
    await memory.append([
      { key: 'last_prompt', value: 'p'.repeat(20_345) },
      { key: 'last_response', value: 'r'.repeat(8000) },
    ]);
    const [prompt, response] = (await linesOf(memory.path)).map((line) =>
      line === '' ? undefined : memoryLineSchema.parse(JSON.parse(line)).value,
    );
    expect(prompt).toBe(`${'p'.repeat(8000)} … [cut: 12,345 more chars]`);
    expect(response).toBe('r'.repeat(8000));
  });

  it('a 100 MB value is stored as 8,000 characters', async () => {
    const memory = new FileMemoryStore(root);
    await memory.append([{ key: 'last_prompt', value: 'x'.repeat(100 * 1024 * 1024) }]);
    expect((await stat(memory.path)).size).toBeLessThan(9000);
  });

  it('compacts to the last 200 lines once the file holds more than 400, not on every append', async () => {
    const memory = new FileMemoryStore(root);
    for (let i = 1; i <= 200; i += 1) await memory.append([entry(2 * i - 1), entry(2 * i)]);
    // 400 lines: still appended to, never rewritten.
    expect((await linesOf(memory.path)).filter(Boolean)).toHaveLength(400);
    await memory.append([entry(401)]);
    const lines = (await linesOf(memory.path)).filter(Boolean);
    expect(lines).toHaveLength(200);
    expect(memoryLineSchema.parse(JSON.parse(lines[0] as string)).key).toBe('k202');
    expect(memoryLineSchema.parse(JSON.parse(lines[199] as string))).toMatchObject({
      key: 'k401',
      value: 'v401',
      schemaVersion: 1,
    });
    expect((await stat(memory.path)).mode & 0o777).toBe(0o600);
    expect(await memory.readRecent(2)).toEqual(['k400: v400', 'k401: v401']);
  });

  it('compaction keeps each line whole, redacts what an older version wrote and drops unreadable lines', async () => {
    const memory = new FileMemoryStore(root);
    const old = Array.from({ length: 450 }, (_, i) =>
      JSON.stringify({ key: 'last_response', value: `answer ${i} ${openaiKey}` }),
    );
    await writeFile(memory.path, `${old.join('\n')}\n{"key":"trunc`);
    await memory.append([{ key: 'last_prompt', value: 'new' }]);
    const text = await readFile(memory.path, 'utf8');
    expect(text).not.toContain(openaiKey);
    expect(text).not.toContain('trunc');
    const lines = text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(199);
    expect(JSON.parse(lines[0] as string)).toEqual({
      key: 'last_response',
      value: 'answer 252 [REDACTED:openai-api-key]',
    });
    expect(await memory.readRecent(2)).toEqual([
      'last_response: answer 449 [REDACTED:openai-api-key]',
      'last_prompt: new',
    ]);
  });

  it('a huge line left by an older version is skipped when read and dropped when compacted', async () => {
    const memory = new FileMemoryStore(root);
    const huge = JSON.stringify({ key: 'last_response', value: 'z'.repeat(10 * 1024 * 1024) });
    await writeFile(memory.path, `${JSON.stringify(entry(1))}\n${huge}\n`);
    expect(await memory.readRecent()).toEqual(['k1: v1']);
    await memory.append([entry(2)]);
    expect((await stat(memory.path)).size).toBeLessThan(1000);
    expect(await memory.readRecent()).toEqual(['k1: v1', 'k2: v2']);
  });
});
