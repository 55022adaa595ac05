import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTailLines } from './jsonl-tail.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'jsonl-tail-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function tail(content: string | Buffer, limit: number, maxLineBytes = 1024) {
  const path = join(dir, 'f.jsonl');
  await writeFile(path, content);
  return readTailLines(path, limit, maxLineBytes);
}

describe('readTailLines', () => {
  it('returns the last lines oldest first, with or without a final newline', async () => {
    expect(await tail('a\nb\nc\n', 2)).toEqual(['b', 'c']);
    expect(await tail('a\nb\nc', 2)).toEqual(['b', 'c']);
    expect(await tail('a\nb\nc\n', 10)).toEqual(['a', 'b', 'c']);
    expect(await tail('only', 3)).toEqual(['only']);
    expect(await tail('', 3)).toEqual([]);
    expect(await tail('a\n', 0)).toEqual([]);
  });

  it('keeps blank lines as lines, so they count towards the limit', async () => {
    expect(await tail('\na\n\n', 5)).toEqual(['', 'a', '']);
    expect(await tail('a\n\nb\n', 2)).toEqual(['', 'b']);
  });

  it('gives an oversized line as undefined without holding it, and it still counts', async () => {
    const huge = 'x'.repeat(200_000);
    expect(await tail(`first\n${huge}\nlast\n`, 3, 100)).toEqual(['first', undefined, 'last']);
    expect(await tail(`first\n${huge}\nlast\n`, 2, 100)).toEqual([undefined, 'last']);
    expect(await tail(`${huge}`, 1, 100)).toEqual([undefined]);
  });

  it('assembles lines across chunk boundaries without splitting multi-byte characters', async () => {
    const long = 'é'.repeat(70_000);
    const lines = await tail(`${long}\n${'€'.repeat(40_000)}\nz\n`, 3, 1_000_000);
    expect(lines).toEqual([long, '€'.repeat(40_000), 'z']);
  });

  it('counts many short lines across chunks exactly', async () => {
    const content = Array.from({ length: 30_000 }, (_, i) => `line ${i}`).join('\n');
    const lines = await tail(`${content}\n`, 401, 0);
    expect(lines).toHaveLength(401);
    expect(await tail(`${content}\n`, 40_000, 100)).toHaveLength(30_000);
  });
});
