import { mkdir, mkdtemp, open, realpath, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openedPlace, workdirRootOf } from './opened-path.js';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-opened-')));
  root = path.join(base, 'w');
  outside = path.join(base, 's');
  await mkdir(path.join(root, 'dir'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(root, 'dir', 'a.txt'), 'inside\n');
  await writeFile(path.join(outside, 'a.txt'), 'outside\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function placeOf(opened: string, canonical: string): Promise<string> {
  const handle = await open(opened, 'r');
  try {
    return await openedPlace(handle, { root, path: canonical });
  } finally {
    await handle.close();
  }
}

describe('openedPlace', () => {
  it('a descriptor of a file inside the workdir is inside', async () => {
    const file = path.join(root, 'dir', 'a.txt');
    expect(await placeOf(file, file)).toBe('inside');
  });

  it('a descriptor opened through a directory swapped for a symlink to outside is outside', async () => {
    // What the race produces: the guard saw root/dir as a directory, the open went through a link.
    await rm(path.join(root, 'dir'), { recursive: true });
    await symlink(outside, path.join(root, 'dir'));
    const canonical = path.join(root, 'dir', 'a.txt');
    expect(await placeOf(canonical, canonical)).toBe('outside');
  });

  it('a sibling directory sharing the workdir name as a prefix is outside (compared by component)', async () => {
    const sibling = `${root}2`;
    await mkdir(sibling);
    await writeFile(path.join(sibling, 'a.txt'), 'x');
    expect(await placeOf(path.join(sibling, 'a.txt'), path.join(root, 'a.txt'))).toBe('outside');
  });

  it('a file inside the workdir removed while open is still inside', async () => {
    const file = path.join(root, 'dir', 'a.txt');
    const handle = await open(file, 'r');
    try {
      await unlink(file);
      expect(await openedPlace(handle, { root, path: file })).toBe('inside');
    } finally {
      await handle.close();
    }
  });
});

describe('workdirRootOf', () => {
  it('climbs one level per component of the relative path, and none for the workdir itself', () => {
    expect(workdirRootOf('/repo/src/a.ts', path.join('src', 'a.ts'))).toBe('/repo');
    expect(workdirRootOf('/repo', '.')).toBe('/repo');
  });
});
