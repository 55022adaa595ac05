import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { QuarantinedFileError } from '@tiny-claw/core/utils';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isTrustedFolder,
  readTrustedFolders,
  trustedFoldersPath,
  trustFolder,
  untrustFolder,
} from './trusted-folders.js';

let ws: TempWorkspace;
let stateDir: string;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'repo/sub/x.txt': '', 'other/x.txt': '' });
  stateDir = ws.path('state');
});
afterEach(() => ws.cleanup());

describe('trusted folders', () => {
  it('trusts a folder by its canonical path and reports when nothing changed', async () => {
    await symlink(ws.path('repo'), ws.path('link'));
    expect(await trustFolder(stateDir, ws.path('link'))).toEqual({
      folder: ws.path('repo'),
      changed: true,
    });
    expect(await trustFolder(stateDir, ws.path('repo'))).toEqual({
      folder: ws.path('repo'),
      changed: false,
    });
    expect((await readTrustedFolders(stateDir)).map((f) => f.path)).toEqual([ws.path('repo')]);
    expect(await isTrustedFolder(stateDir, ws.path('link'))).toBe(true);
  });

  it('trusts exactly the folder: neither its subfolders nor its parent', async () => {
    await trustFolder(stateDir, ws.path('repo'));
    expect(await isTrustedFolder(stateDir, ws.path('repo'))).toBe(true);
    expect(await isTrustedFolder(stateDir, ws.path('repo/sub'))).toBe(false);
    expect(await isTrustedFolder(stateDir, ws.dir)).toBe(false);
    expect(await isTrustedFolder(stateDir, ws.path('other'))).toBe(false);
  });

  it('treats a missing list or a missing folder as untrusted', async () => {
    expect(await isTrustedFolder(stateDir, ws.path('repo'))).toBe(false);
    expect(await isTrustedFolder(stateDir, ws.path('gone'))).toBe(false);
  });

  it('untrusts a folder, and a folder that was never trusted changes nothing', async () => {
    await trustFolder(stateDir, ws.path('repo'));
    await trustFolder(stateDir, ws.path('other'));
    expect(await untrustFolder(stateDir, ws.path('repo'))).toEqual({
      folder: ws.path('repo'),
      changed: true,
    });
    expect(await untrustFolder(stateDir, ws.path('repo'))).toMatchObject({ changed: false });
    expect(await isTrustedFolder(stateDir, ws.path('repo'))).toBe(false);
    expect(await isTrustedFolder(stateDir, ws.path('other'))).toBe(true);
  });

  it('writes the list as a private file in a private directory', async () => {
    await trustFolder(stateDir, ws.path('repo'));
    expect((await stat(trustedFoldersPath(stateDir))).mode & 0o777).toBe(0o600);
    expect((await stat(stateDir)).mode & 0o777).toBe(0o700);
    const list = JSON.parse(await readFile(trustedFoldersPath(stateDir), 'utf8'));
    expect(list).toMatchObject({ version: 1, folders: [{ path: ws.path('repo') }] });
  });

  it('keeps every change when several folders are trusted at once', async () => {
    const dirs = ['a', 'b', 'c', 'd'].map((name) => ws.path(name));
    await Promise.all(dirs.map((dir) => mkdir(dir)));
    await Promise.all(dirs.map((dir) => trustFolder(stateDir, dir)));
    expect((await readTrustedFolders(stateDir)).map((f) => f.path).sort()).toEqual(dirs);
  });

  it('quarantines a corrupt list instead of replacing it, and trusts nothing meanwhile', async () => {
    await mkdir(stateDir);
    await writeFile(trustedFoldersPath(stateDir), '{"version":1,"folders":[{"path":"relative"');
    await expect(isTrustedFolder(stateDir, ws.path('repo'))).rejects.toBeInstanceOf(
      QuarantinedFileError,
    );
    expect((await readdir(stateDir)).some((name) => name.includes('.unreadable-'))).toBe(true);
    expect(await isTrustedFolder(stateDir, ws.path('repo'))).toBe(false);
  });

  it('rejects a list whose entries are not absolute paths', async () => {
    await mkdir(stateDir);
    await writeFile(
      trustedFoldersPath(stateDir),
      JSON.stringify({
        version: 1,
        folders: [{ path: 'repo', trustedAt: new Date().toISOString() }],
      }),
    );
    await expect(readTrustedFolders(stateDir)).rejects.toThrow(/absolute path/);
  });
});
