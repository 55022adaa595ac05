import type * as FsPromises from 'node:fs/promises';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateError } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfinedWriteError, writeFileConfined } from './confined-write.js';

// `noProc` hides /proc/self/fd from writeFileConfined's probe, forcing its path-based fallback
// (what runs on macOS, Windows or without /proc).
const probe = vi.hoisted(() => ({ noProc: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof FsPromises>();
  return {
    ...actual,
    stat: async (...args: Parameters<typeof actual.stat>) => {
      if (probe.noProc && String(args[0]).startsWith('/proc/self/fd/')) {
        throw Object.assign(new Error('ENOENT: simulated'), { code: 'ENOENT' });
      }
      return actual.stat(...args);
    },
  };
});

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tiny-claw-confined-')));
  root = join(base, 'w');
  outside = join(base, 's');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, 'secret'), 'SECRET\n');
});

afterEach(async () => {
  probe.noProc = false;
  await rm(base, { recursive: true, force: true });
});

const permissions = async (p: string) => (await stat(p)).mode & 0o777;

async function expectOutsideUntouched(): Promise<void> {
  expect(await readdir(outside)).toEqual(['secret']);
  expect(await readFile(join(outside, 'secret'), 'utf8')).toBe('SECRET\n');
}

async function failure(promise: Promise<unknown>): Promise<ConfinedWriteError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfinedWriteError);
  expect(error).toBeInstanceOf(StateError);
  return error as ConfinedWriteError;
}

const modes = [
  ['through /proc/self/fd', false],
  ['by path (fallback without /proc/self/fd)', true],
] as const;

describe.each(modes)('writeFileConfined %s', (_label, noProc) => {
  beforeEach(() => {
    probe.noProc = noProc;
  });

  it('creates a file and its missing parents, with the exact mode and no temp file left', async () => {
    const stats = await writeFileConfined(root, 'a/b/new.txt', 'hello\n', {
      mode: 0o640,
      createParents: true,
    });
    expect(await readFile(join(root, 'a', 'b', 'new.txt'), 'utf8')).toBe('hello\n');
    expect(await permissions(join(root, 'a', 'b', 'new.txt'))).toBe(0o640);
    expect(stats.size).toBe(6);
    expect(stats.ino).toBe((await stat(join(root, 'a', 'b', 'new.txt'))).ino);
    expect(await readdir(join(root, 'a', 'b'))).toEqual(['new.txt']);
  });

  it('replaces an existing file atomically (new inode, default mode 0600)', async () => {
    const target = join(root, 'f.txt');
    await writeFile(target, 'old\n', { mode: 0o644 });
    const before = await stat(target);
    await writeFileConfined(root, 'f.txt', new Uint8Array([104, 105]));
    expect(await readFile(target, 'utf8')).toBe('hi');
    expect(await permissions(target)).toBe(0o600);
    expect((await stat(target)).ino).not.toBe(before.ino);
    expect(await readdir(root)).toEqual(['f.txt']);
  });

  it('round-trips a 255-byte name', async () => {
    const name = 'n'.repeat(255);
    await mkdir(join(root, 'd'));
    await writeFileConfined(root, `d/${name}`, 'long\n');
    await writeFileConfined(root, `d/${name}`, 'longer\n');
    expect(await readFile(join(root, 'd', name), 'utf8')).toBe('longer\n');
    expect(await readdir(join(root, 'd'))).toEqual([name]);
  });

  it('refuses a directory on the way that is a symlink to outside: nothing lands there', async () => {
    await symlink(outside, join(root, 'link'));
    for (const createParents of [false, true]) {
      const error = await failure(
        writeFileConfined(root, 'link/x.txt', 'pwned', { createParents }),
      );
      expect(error.reason).toBe('changed');
      expect(error.message).toContain('link/x.txt');
      expect(error.detail).toMatch(/directory changed while writing.*nothing was written outside/);
    }
    await expectOutsideUntouched();
    expect(await readdir(root)).toEqual(['link']);
  });

  it('reports a parent that is a file as not_directory', async () => {
    await writeFile(join(root, 'file'), 'x');
    for (const createParents of [false, true]) {
      const error = await failure(
        writeFileConfined(root, 'file/sub/x.txt', 'x', { createParents }),
      );
      expect(error.reason).toBe('not_directory');
      // The fallback cannot tell which component it is (realpath only says ENOTDIR).
      expect(error.detail).toMatch(/^file(\/sub)? is not a directory$/);
    }
    expect(await readdir(root)).toEqual(['file']);
  });

  it('refuses a missing parent unless createParents is set', async () => {
    const error = await failure(writeFileConfined(root, 'missing/x.txt', 'x'));
    expect(error.reason).toBe('changed');
    expect(await readdir(root)).toEqual([]);
  });

  it('refuses paths that are not plain relative paths before touching the disk', async () => {
    for (const rel of ['', '.', '..', '../s/secret', 'a/../b', 'a//b', 'a/./b', '/abs', 'a\0b']) {
      const error = await failure(writeFileConfined(root, rel, 'x', { createParents: true }));
      expect(error.reason, JSON.stringify(rel)).toBe('invalid_path');
    }
    const relativeRoot = await failure(writeFileConfined('w', 'x.txt', 'x'));
    expect(relativeRoot.reason).toBe('invalid_path');
    expect(await readdir(root)).toEqual([]);
    await expectOutsideUntouched();
  });

  it('replaces a symlink at the target itself instead of writing through it', async () => {
    await symlink(join(outside, 'secret'), join(root, 'notes.txt'));
    await writeFileConfined(root, 'notes.txt', 'mine\n');
    expect((await lstat(join(root, 'notes.txt'))).isFile()).toBe(true);
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('mine\n');
    await expectOutsideUntouched();
  });

  it('passes the current target to beforeReplace, and a throw there aborts with no temp left', async () => {
    await writeFile(join(root, 'f.txt'), 'old\n');
    const seen: Array<number | undefined> = [];
    await writeFileConfined(root, 'new.txt', 'x', {
      beforeReplace: (s) => void seen.push(s?.size),
    });
    await writeFileConfined(root, 'f.txt', 'x', { beforeReplace: (s) => void seen.push(s?.size) });
    expect(seen).toEqual([undefined, 4]);
    const veto = new Error('changed since read');
    const thrown = await writeFileConfined(root, 'f.txt', 'y', {
      beforeReplace: () => {
        throw veto;
      },
    }).catch((e: unknown) => e);
    expect(thrown).toBe(veto);
    expect(await readFile(join(root, 'f.txt'), 'utf8')).toBe('x');
    expect((await readdir(root)).sort()).toEqual(['f.txt', 'new.txt']);
  });

  it('keeps the old content and removes the temp file when the rename fails', async () => {
    await mkdir(join(root, 'occupied'));
    await writeFile(join(root, 'occupied', 'inside.txt'), 'old');
    const error = await failure(writeFileConfined(root, 'occupied', 'new'));
    expect(error.reason).toBe('io');
    expect(error.detail).toMatch(/^could not rename the temp file onto the target \(E[A-Z]+\)$/);
    expect(error.message).not.toContain('/proc/');
    expect(await readdir(root)).toEqual(['occupied']);
    expect(await readFile(join(root, 'occupied', 'inside.txt'), 'utf8')).toBe('old');
  });
});

describe.runIf(process.platform === 'linux')(
  'writeFileConfined on Linux (check-to-use race)',
  () => {
    it('a directory swapped for a symlink after the walk still gets the file, never the outside', async () => {
      // The swap runs between the walk (and temp file) and the rename: the path now leads outside,
      // but the rename goes through the descriptor of the directory that was checked.
      await mkdir(join(root, 'dir'));
      await writeFile(join(root, 'dir', 'keep.txt'), 'keep\n');
      const swap = async () => {
        await rename(join(root, 'dir'), join(root, 'dir.aside'));
        await symlink(outside, join(root, 'dir'));
      };
      await writeFileConfined(root, 'dir/keep.txt', 'new\n', { beforeReplace: swap });
      await expectOutsideUntouched();
      expect(await readFile(join(root, 'dir.aside', 'keep.txt'), 'utf8')).toBe('new\n');
      expect(await readdir(join(root, 'dir.aside'))).toEqual(['keep.txt']);
    });

    it('the fallback goes by path: the same late swap makes its rename fail, nothing outside', async () => {
      probe.noProc = true;
      await mkdir(join(root, 'dir'));
      const swap = async () => {
        await rename(join(root, 'dir'), join(root, 'dir.aside'));
        await symlink(outside, join(root, 'dir'));
      };
      const error = await failure(
        writeFileConfined(root, 'dir/x.txt', 'x', { beforeReplace: swap }),
      );
      // The temp file sits in the real (moved) dir; the rename by path looks in the outside dir.
      expect(error.reason).toBe('changed');
      await expectOutsideUntouched();
      // Its cleanup also goes by path, so the temp file stays behind in the moved (inside) dir.
      expect(await readdir(join(root, 'dir.aside'))).toEqual([
        expect.stringMatching(/^\.x\.txt\.tmp-[0-9a-f]{12}$/),
      ]);
    });

    it('a symlinked root is refused', async () => {
      await symlink(root, join(base, 'root-link'));
      const error = await failure(writeFileConfined(join(base, 'root-link'), 'x.txt', 'x'));
      expect(error.reason).toBe('changed');
      expect(await readdir(root)).toEqual([]);
    });
  },
);
