import { createHash } from 'node:crypto';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changedPath, preImage } from './pre-image.js';

let ws: TempWorkspace;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'src/a.ts': 'let a = 1;\n', 'other/a.ts': 'let a = 666;\n' });
});

afterEach(async () => {
  await ws.cleanup();
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('preImage', () => {
  it('records the sha256 of the file an edit or a write would change', async () => {
    const edit = await preImage({ name: 'edit', arguments: { path: 'src/a.ts' } }, ws.dir);
    expect(edit).toEqual({ [ws.path('src/a.ts')]: sha('let a = 1;\n') });
    const write = await preImage(
      { name: 'write', arguments: { path: ws.path('src/a.ts') } },
      ws.dir,
    );
    expect(write).toEqual(edit);
  });

  it('records a missing file as null, keyed by the real path of its deepest existing ancestor', async () => {
    const image = await preImage({ name: 'write', arguments: { path: 'src/new/deep.ts' } }, ws.dir);
    expect(image).toEqual({ [ws.path('src/new/deep.ts')]: null });
  });

  it('is empty for other tools and for calls without a usable path', async () => {
    expect(await preImage({ name: 'bash', arguments: { command: 'rm x' } }, ws.dir)).toEqual({});
    expect(await preImage({ name: 'edit', arguments: {} }, ws.dir)).toEqual({});
    expect(await preImage({ name: 'edit', arguments: { path: 42 } }, ws.dir)).toEqual({});
    expect(await preImage({ name: 'edit', arguments: { path: 'a\0b' } }, ws.dir)).toEqual({});
  });

  it('notices a file changed since the request', async () => {
    const call = { name: 'edit', arguments: { path: 'src/a.ts' } };
    const before = await preImage(call, ws.dir);
    await writeFile(ws.path('src/a.ts'), 'let a = 2;\n');
    expect(changedPath(before, await preImage(call, ws.dir))).toBe(ws.path('src/a.ts'));
  });

  it('notices a file created or deleted since the request', async () => {
    const create = { name: 'write', arguments: { path: 'src/b.ts' } };
    const absent = await preImage(create, ws.dir);
    await writeFile(ws.path('src/b.ts'), 'new\n');
    expect(changedPath(absent, await preImage(create, ws.dir))).toBe(ws.path('src/b.ts'));

    const remove = { name: 'edit', arguments: { path: 'src/a.ts' } };
    const present = await preImage(remove, ws.dir);
    await rm(ws.path('src/a.ts'));
    expect(changedPath(present, await preImage(remove, ws.dir))).toBe(ws.path('src/a.ts'));
  });

  it('notices a directory swapped for a symlink even when the target bytes are the same', async () => {
    await writeFile(ws.path('other/a.ts'), 'let a = 1;\n');
    const call = { name: 'edit', arguments: { path: 'src/a.ts' } };
    const before = await preImage(call, ws.dir);
    await rename(ws.path('src'), ws.path('src-moved'));
    await symlink(ws.path('other'), ws.path('src'));
    const after = await preImage(call, ws.dir);
    expect(Object.keys(after)).toEqual([ws.path('other/a.ts')]);
    expect(changedPath(before, after)).toBeDefined();
  });

  it('notices a missing file whose parent became a symlink elsewhere', async () => {
    const call = { name: 'write', arguments: { path: 'gen/out.txt' } };
    await mkdir(ws.path('gen'));
    const before = await preImage(call, ws.dir);
    await rm(ws.path('gen'), { recursive: true });
    await symlink(ws.path('other'), ws.path('gen'));
    expect(changedPath(before, await preImage(call, ws.dir))).toBe(ws.path('gen/out.txt'));
  });

  it('marks a directory target as not a file', async () => {
    expect(await preImage({ name: 'write', arguments: { path: 'src' } }, ws.dir)).toEqual({
      [ws.path('src')]: 'not_a_file',
    });
  });
});

describe('changedPath', () => {
  it('is undefined for equal images and names the first differing path otherwise', () => {
    expect(changedPath({ '/r/a': 'x' }, { '/r/a': 'x' })).toBeUndefined();
    expect(changedPath({}, {})).toBeUndefined();
    expect(changedPath({ '/r/a': 'x' }, { '/r/b': 'x' })).toBe('/r/a');
    expect(changedPath({ '/r/a': null }, { '/r/a': 'x' })).toBe('/r/a');
  });
});
