import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateError } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atomicTempName, ensureDir, writeFileAtomic, writeJsonAtomic } from './atomic-write.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiny-claw-atomic-'));
});

afterEach(async () => {
  await chmod(root, 0o700).catch(() => {});
  await rm(root, { recursive: true, force: true });
});

const permissions = async (path: string) => (await stat(path)).mode & 0o777;
const isRoot = process.getuid?.() === 0;

describe('ensureDir', () => {
  it('creates every missing directory with mode 0700', async () => {
    const nested = join(root, 'a', 'b', 'c');
    await ensureDir(nested);
    for (const dir of [join(root, 'a'), join(root, 'a', 'b'), nested]) {
      expect(await permissions(dir)).toBe(0o700);
    }
  });

  it('accepts a directory that already exists', async () => {
    await ensureDir(root);
    await ensureDir(root);
    expect((await stat(root)).isDirectory()).toBe(true);
  });

  it('creates the same new tree from many concurrent calls', async () => {
    const nested = join(root, 'x', 'y', 'z');
    await Promise.all(Array.from({ length: 8 }, () => ensureDir(nested)));
    expect((await stat(nested)).isDirectory()).toBe(true);
  });

  it('reports a file in the way instead of treating it as a directory', async () => {
    await writeFile(join(root, 'file'), '');
    await expect(ensureDir(join(root, 'file'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(ensureDir(join(root, 'file', 'sub'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it.skipIf(process.platform !== 'linux')(
    'fails at once under /proc, where the parent exists but refuses new directories, instead of retrying for ever',
    async () => {
      const error = await ensureDir('/proc/tiny-claw-test/state').catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'ENOENT' });
      expect((error as Error).message).toContain(
        'cannot create the directory /proc/tiny-claw-test',
      );
      await expect(writeFileAtomic('/proc/tiny-claw-test/a.json', '{}')).rejects.toThrow(
        /Could not write \/proc\/tiny-claw-test\/a\.json: .*refuses new entries/,
      );
    },
  );
});

describe('writeFileAtomic', () => {
  it('writes the content with mode 0600 and leaves no temp file', async () => {
    const target = join(root, 'state.txt');
    await writeFileAtomic(target, 'hello\n');
    expect(await readFile(target, 'utf8')).toBe('hello\n');
    expect(await permissions(target)).toBe(0o600);
    expect(await readdir(root)).toEqual(['state.txt']);
  });

  it('creates missing parent directories with mode 0700', async () => {
    const target = join(root, 'deep', 'er', 'state.json');
    await writeFileAtomic(target, new Uint8Array([1, 2, 3]));
    expect([...(await readFile(target))]).toEqual([1, 2, 3]);
    expect(await permissions(join(root, 'deep'))).toBe(0o700);
    expect(await permissions(join(root, 'deep', 'er'))).toBe(0o700);
  });

  it('replaces an existing file and tightens its mode to the requested one', async () => {
    const target = join(root, 'state.txt');
    await writeFile(target, 'old', { mode: 0o644 });
    await writeFileAtomic(target, 'new');
    expect(await readFile(target, 'utf8')).toBe('new');
    expect(await permissions(target)).toBe(0o600);
  });

  it('applies an explicit mode exactly, regardless of the umask', async () => {
    const target = join(root, 'public.txt');
    await writeFileAtomic(target, 'x', { mode: 0o644 });
    expect(await permissions(target)).toBe(0o644);
  });

  it('keeps the old content and removes the temp file when the rename fails', async () => {
    // A non-empty directory as target makes rename(2) fail on every platform, even for root.
    const target = join(root, 'occupied');
    await mkdir(target);
    await writeFile(join(target, 'inside.txt'), 'old');
    const error = await writeFileAtomic(target, 'new').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).message).toContain(target);
    expect(await readFile(join(target, 'inside.txt'), 'utf8')).toBe('old');
    expect(await readdir(root)).toEqual(['occupied']);
  });

  it.skipIf(isRoot)('keeps the old content when the directory is not writable', async () => {
    const target = join(root, 'state.txt');
    await writeFile(target, 'old');
    await chmod(root, 0o500);
    await expect(writeFileAtomic(target, 'new')).rejects.toThrow(StateError);
    await chmod(root, 0o700);
    expect(await readFile(target, 'utf8')).toBe('old');
    expect(await readdir(root)).toEqual(['state.txt']);
  });

  it('concurrent writes to one file never leave a mix or a temp file behind', async () => {
    const target = join(root, 'state.txt');
    const values = Array.from({ length: 20 }, (_, i) => String(i).repeat(10_000));
    await Promise.all(values.map((value) => writeFileAtomic(target, value)));
    expect(values).toContain(await readFile(target, 'utf8'));
    expect(await readdir(root)).toEqual(['state.txt']);
  });
});

describe('atomicTempName', () => {
  it('is a hidden `.<name>.tmp-<12 hex>` while that fits in 255 bytes', () => {
    expect(atomicTempName('state.json')).toMatch(/^\.state\.json\.tmp-[0-9a-f]{12}$/);
    expect(atomicTempName('state.json')).not.toBe(atomicTempName('state.json'));
    // 237 bytes is the longest name that keeps the descriptive form (1 + 237 + 5 + 12 = 255).
    const longest = 'a'.repeat(237);
    const temp = atomicTempName(longest);
    expect(temp).toMatch(new RegExp(`^\\.${longest}\\.tmp-[0-9a-f]{12}$`));
    expect(Buffer.byteLength(temp)).toBe(255);
  });

  it('falls back to `.tc-<12 hex>.tmp` for names whose temp name would exceed 255 bytes', () => {
    for (const name of ['a'.repeat(238), 'a'.repeat(255), '\u00e9'.repeat(120)]) {
      const temp = atomicTempName(name);
      expect(temp).toMatch(/^\.tc-[0-9a-f]{12}\.tmp$/);
      expect(Buffer.byteLength(temp)).toBeLessThanOrEqual(255);
    }
  });
});

describe('writeFileAtomic with the longest names', () => {
  it('round-trips a 255-byte name (ASCII and multi-byte) and leaves no temp file', async () => {
    for (const name of ['a'.repeat(255), `${'\u00e9'.repeat(127)}x`]) {
      expect(Buffer.byteLength(name)).toBe(255);
      const target = join(root, name);
      await writeFileAtomic(target, `content of ${name.length}\n`);
      expect(await readFile(target, 'utf8')).toBe(`content of ${name.length}\n`);
      await writeFileAtomic(target, 'replaced\n');
      expect(await readFile(target, 'utf8')).toBe('replaced\n');
      expect(await readdir(root)).toEqual([name]);
      await rm(target);
    }
  });
});

describe('writeJsonAtomic', () => {
  it('writes pretty JSON with two spaces and a trailing newline', async () => {
    const target = join(root, 'meta.json');
    await writeJsonAtomic(target, { a: 1, b: [true] });
    expect(await readFile(target, 'utf8')).toBe('{\n  "a": 1,\n  "b": [\n    true\n  ]\n}\n');
    expect(await permissions(target)).toBe(0o600);
  });

  it('refuses a value without a JSON form instead of writing "undefined"', async () => {
    const target = join(root, 'meta.json');
    await expect(writeJsonAtomic(target, undefined)).rejects.toThrow(StateError);
    expect(await readdir(root)).toEqual([]);
  });
});
