import type * as FsPromises from 'node:fs/promises';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateError } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from './atomic-write.js';

// Simulates the failures a real disk produces (full disk mid-write, EACCES on rename) without
// needing a full filesystem or a non-root user.
const failure = vi.hoisted(() => ({ write: false, rename: false }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof FsPromises>();
  const errno = (code: string) => Object.assign(new Error(`${code}: simulated`), { code });
  return {
    ...actual,
    open: async (...args: Parameters<typeof actual.open>) => {
      const handle = await actual.open(...args);
      if (failure.write && String(args[0]).includes('.tmp-')) {
        // Half the data reaches the temp file, then the disk is full.
        handle.writeFile = async (data: unknown) => {
          await actual.appendFile(String(args[0]), String(data).slice(0, 3));
          throw errno('ENOSPC');
        };
      }
      return handle;
    },
    rename: async (...args: Parameters<typeof actual.rename>) => {
      if (failure.rename) throw errno('EACCES');
      return actual.rename(...args);
    },
  };
});

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-claw-atomic-fail-'));
});

afterEach(async () => {
  failure.write = false;
  failure.rename = false;
  await rm(root, { recursive: true, force: true });
});

describe('writeFileAtomic under failure', () => {
  it('keeps the old content and leaves no temp file when writing the data fails', async () => {
    const target = join(root, 'state.txt');
    await writeFile(target, 'old content');
    failure.write = true;
    const error = await writeFileAtomic(target, 'new content').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).message).toContain(target);
    expect((error as StateError).message).toContain('ENOSPC');
    expect(await readFile(target, 'utf8')).toBe('old content');
    expect(await readdir(root)).toEqual(['state.txt']);
  });

  it('keeps the old content and leaves no temp file when the rename is refused', async () => {
    const target = join(root, 'state.txt');
    await writeFile(target, 'old content');
    failure.rename = true;
    await expect(writeFileAtomic(target, 'new content')).rejects.toThrow(/EACCES/);
    expect(await readFile(target, 'utf8')).toBe('old content');
    expect(await readdir(root)).toEqual(['state.txt']);
  });

  it('creates no target at all when the first write of a new file fails', async () => {
    const target = join(root, 'new.txt');
    failure.write = true;
    await expect(writeFileAtomic(target, 'content')).rejects.toThrow(StateError);
    expect(await readdir(root)).toEqual([]);
  });
});
