import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { QuarantinedFileError } from '@tiny-claw/workspace/files';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isTrustedFolder,
  noticeTrustedDotenv,
  readTrustedFolders,
  settingsFileSha256,
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
      refreshed: false,
    });
    expect(await trustFolder(stateDir, ws.path('repo'))).toEqual({
      folder: ws.path('repo'),
      changed: false,
      refreshed: false,
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
      refreshed: false,
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

describe('the .env of a trusted folder is recorded with the trust', () => {
  const sha = (text: string) => settingsFileSha256(Buffer.from(text));
  const recorded = async () => (await readTrustedFolders(stateDir))[0];

  it('records the SHA-256 of the .env, or that there is none', async () => {
    await writeFile(ws.path('repo/.env'), 'A=1\n');
    await trustFolder(stateDir, ws.path('repo'));
    await trustFolder(stateDir, ws.path('other'));
    const [repo, other] = await readTrustedFolders(stateDir);
    expect(repo?.dotenvSha256).toBe(sha('A=1\n'));
    expect(other?.dotenvSha256).toBeNull();
  });

  it('says nothing while the .env is the one recorded', async () => {
    await writeFile(ws.path('repo/.env'), 'A=1\n');
    await trustFolder(stateDir, ws.path('repo'));
    expect(await noticeTrustedDotenv(stateDir, ws.path('repo'), sha('A=1\n'))).toBeUndefined();
  });

  it('reports a changed .env once per content, and records what it told', async () => {
    await writeFile(ws.path('repo/.env'), 'A=1\n');
    await trustFolder(stateDir, ws.path('repo'));
    const { trustedAt } = (await recorded()) ?? { trustedAt: '' };
    const first = await noticeTrustedDotenv(stateDir, ws.path('repo'), sha('A=2\n'));
    expect(first).toEqual({ change: 'changed', trustedAt });
    expect(await noticeTrustedDotenv(stateDir, ws.path('repo'), sha('A=2\n'))).toBeUndefined();
    expect(await recorded()).toMatchObject({
      dotenvSha256: sha('A=1\n'),
      noticedSha256: sha('A=2\n'),
    });
    // Another change is news again; going back to the trusted content is not.
    expect(await noticeTrustedDotenv(stateDir, ws.path('repo'), sha('A=3\n'))).toMatchObject({
      change: 'changed',
    });
    expect(await noticeTrustedDotenv(stateDir, ws.path('repo'), sha('A=1\n'))).toBeUndefined();
  });

  it('reports a .env that appeared after a folder was trusted without one', async () => {
    await trustFolder(stateDir, ws.path('repo'));
    expect(await noticeTrustedDotenv(stateDir, ws.path('repo'), sha('A=1\n'))).toMatchObject({
      change: 'changed',
    });
  });

  it('trusting again records the .env as it is now, which ends the notices', async () => {
    await writeFile(ws.path('repo/.env'), 'A=1\n');
    await trustFolder(stateDir, ws.path('repo'));
    const { trustedAt } = (await recorded()) ?? { trustedAt: '' };
    await writeFile(ws.path('repo/.env'), 'A=2\n');
    await noticeTrustedDotenv(stateDir, ws.path('repo'), sha('A=2\n'));
    expect(await trustFolder(stateDir, ws.path('repo'))).toEqual({
      folder: ws.path('repo'),
      changed: true,
      refreshed: true,
    });
    expect(await recorded()).toEqual({
      path: ws.path('repo'),
      trustedAt,
      dotenvSha256: sha('A=2\n'),
    });
    expect(await noticeTrustedDotenv(stateDir, ws.path('repo'), sha('A=2\n'))).toBeUndefined();
  });

  it('migrates a trust recorded without a .env: one notice, then its content is the recorded one', async () => {
    await mkdir(stateDir);
    const trustedAt = '2026-01-02T03:04:05.000Z';
    await writeFile(
      trustedFoldersPath(stateDir),
      JSON.stringify({ version: 1, folders: [{ path: ws.path('repo'), trustedAt }] }),
    );
    expect(await isTrustedFolder(stateDir, ws.path('repo'))).toBe(true);
    expect(await noticeTrustedDotenv(stateDir, ws.path('repo'), sha('A=1\n'))).toEqual({
      change: 'unrecorded',
      trustedAt,
    });
    expect(await noticeTrustedDotenv(stateDir, ws.path('repo'), sha('A=1\n'))).toBeUndefined();
    expect(await recorded()).toMatchObject({ dotenvSha256: sha('A=1\n') });
    expect(await noticeTrustedDotenv(stateDir, ws.path('repo'), sha('A=2\n'))).toMatchObject({
      change: 'changed',
    });
  });

  it('says nothing about a folder that is not trusted', async () => {
    expect(await noticeTrustedDotenv(stateDir, ws.path('repo'), sha('A=1\n'))).toBeUndefined();
  });
});
