import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cutToCodePoints, isInsideDir, readWorkdirText } from './read-workdir-text.js';

let base: string;
let root: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tiny-claw-read-text-')));
  root = join(base, 'repo');
  await mkdir(root);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('isInsideDir', () => {
  it('compares by path component, not by string prefix', () => {
    expect(isInsideDir('/repo', '/repo')).toBe(true);
    expect(isInsideDir('/repo', '/repo/a/b')).toBe(true);
    expect(isInsideDir('/repo', '/repo/..foo')).toBe(true);
    expect(isInsideDir('/repo', '/repo-evil/a')).toBe(false);
    expect(isInsideDir('/repo', '/')).toBe(false);
    expect(isInsideDir('/repo', '/other')).toBe(false);
  });
});

describe('readWorkdirText', () => {
  it('reads UTF-8 text, dropping a BOM and normalising CRLF', async () => {
    await writeFile(join(root, 'a.md'), '\uFEFFone\r\ntwo\rthree');
    expect(await readWorkdirText(root, join(root, 'a.md'), 100)).toMatchObject({
      status: 'ok',
      text: 'one\ntwo\nthree',
      truncated: false,
    });
  });

  it('reports a missing file as missing', async () => {
    expect(await readWorkdirText(root, join(root, 'nope.md'), 100)).toEqual({ status: 'missing' });
  });

  it('refuses a symlink that escapes the workdir, including a sibling with the same prefix', async () => {
    await mkdir(join(base, 'repo-evil'));
    await writeFile(join(base, 'repo-evil', 'secret.md'), 'secret');
    await symlink(join(base, 'repo-evil', 'secret.md'), join(root, 'link.md'));
    expect(await readWorkdirText(root, join(root, 'link.md'), 100)).toEqual({
      status: 'skipped',
      reason: 'outside_workdir',
    });
  });

  it('refuses invalid UTF-8 and non-regular files', async () => {
    await writeFile(join(root, 'bin.md'), Buffer.from([0x61, 0xc3, 0x28]));
    expect(await readWorkdirText(root, join(root, 'bin.md'), 100)).toMatchObject({
      reason: 'not_utf8',
    });
    await mkdir(join(root, 'dir.md'));
    expect(await readWorkdirText(root, join(root, 'dir.md'), 100)).toMatchObject({
      reason: 'not_regular_file',
    });
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO without blocking on it', async () => {
    execFileSync('mkfifo', [join(root, 'pipe.md')]);
    expect(await readWorkdirText(root, join(root, 'pipe.md'), 100)).toMatchObject({
      reason: 'not_regular_file',
    });
  });

  it('cuts at maxChars code points, even when the byte limit splits a character', async () => {
    // 10 characters allow 44 bytes: 'a' + ten 4-byte emoji + 3 bytes of the eleventh.
    await writeFile(join(root, 'long.md'), `a${'😀'.repeat(50)}`);
    const result = await readWorkdirText(root, join(root, 'long.md'), 10);
    expect(result).toMatchObject({ status: 'ok', text: `a${'😀'.repeat(9)}`, truncated: true });
    await writeFile(join(root, 'exact.md'), '😀'.repeat(10));
    expect(await readWorkdirText(root, join(root, 'exact.md'), 10)).toMatchObject({
      truncated: false,
    });
  });
});

describe('cutToCodePoints', () => {
  it('never splits a surrogate pair and reports whether it cut', () => {
    expect(cutToCodePoints('a😀b', 2)).toEqual({ text: 'a😀', cut: true });
    expect(cutToCodePoints('a😀b', 3)).toEqual({ text: 'a😀b', cut: false });
    expect(cutToCodePoints('abc', 5)).toEqual({ text: 'abc', cut: false });
  });
});
