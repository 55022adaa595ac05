import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { isErrnoError } from '@tiny-claw/core/utils';
import { readJsonFile, withPathLock, writeJsonAtomic } from '@tiny-claw/workspace/files';
import { z } from 'zod';
import { readSettingsFile } from './settings-file-read.js';

/** Name of the trust list inside the state dir. */
export const TRUSTED_FOLDERS_FILE = 'trusted-folders.json';

/**
 * One folder whose `.env` tiny-claw reads: its canonical path (symlinks resolved), when it was
 * trusted, and the SHA-256 of its `.env` then (`null`: it had none; absent: trusted by a version
 * that did not record it). `noticedSha256` is the last changed `.env` the user was told about.
 *
 * @example
 * const folder: TrustedFolder = { path: '/home/me/repo', trustedAt: '2026-12-01T10:00:00.000Z', dotenvSha256: null };
 */
export interface TrustedFolder {
  readonly path: string;
  readonly trustedAt: string;
  readonly dotenvSha256?: string | null;
  readonly noticedSha256?: string;
}

/**
 * What {@link trustFolder} or {@link untrustFolder} did: the canonical folder, whether the list
 * changed (false when it was already trusted as it is, or was not trusted), and whether only the
 * recorded `.env` of a folder that was already trusted was brought up to date (`refreshed`).
 *
 * @example
 * const { folder, changed, refreshed } = await trustFolder(stateDir, process.cwd());
 */
export interface TrustChange {
  readonly folder: string;
  readonly changed: boolean;
  readonly refreshed: boolean;
}

/**
 * Why a trusted folder's `.env` is worth a word: it `changed` since the folder was trusted, or the
 * folder was trusted before its `.env` was recorded (`unrecorded`; it is recorded now).
 *
 * @example
 * const notice: TrustedDotenvNotice = { change: 'changed', trustedAt: '2026-12-01T10:00:00.000Z' };
 */
export interface TrustedDotenvNotice {
  readonly change: 'changed' | 'unrecorded';
  readonly trustedAt: string;
}

const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'expected a SHA-256 in hex');

const trustedFoldersSchema = z.object({
  version: z.literal(1),
  folders: z.array(
    z.object({
      path: z.string().refine(isAbsolute, 'expected an absolute path'),
      trustedAt: z.iso.datetime(),
      dotenvSha256: sha256Schema.nullable().optional(),
      noticedSha256: sha256Schema.optional(),
    }),
  ),
});

/**
 * The SHA-256 (hex) of settings file bytes, as recorded with a trusted folder.
 *
 * @example
 * settingsFileSha256(Buffer.from('A=1\n')); // → '…64 hex digits…'
 */
export function settingsFileSha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The SHA-256 of `<folder>/.env`, or null when it has none (read with the settings file limits). */
async function currentDotenvSha256(folder: string): Promise<string | null> {
  const bytes = await readSettingsFile(join(folder, '.env'));
  return bytes === undefined ? null : settingsFileSha256(bytes);
}

/**
 * Path of the trust list of a state dir.
 *
 * @example
 * trustedFoldersPath('/home/me/.tiny-claw'); // → '/home/me/.tiny-claw/trusted-folders.json'
 */
export function trustedFoldersPath(stateDir: string): string {
  return join(stateDir, TRUSTED_FOLDERS_FILE);
}

/**
 * The trusted folders of a state dir; none when the list does not exist yet.
 *
 * @throws QuarantinedFileError (a StateError) when the list is corrupt: it is moved aside as
 * `trusted-folders.json.unreadable-<timestamp>`, never silently replaced.
 * @example
 * for (const folder of await readTrustedFolders(stateDir)) console.log(folder.path);
 */
export async function readTrustedFolders(stateDir: string): Promise<readonly TrustedFolder[]> {
  const list = await readJsonFile(trustedFoldersPath(stateDir), trustedFoldersSchema);
  return list?.folders ?? [];
}

/**
 * Whether `dir` itself is trusted. Trust is per folder, compared by canonical path: a trusted
 * folder's subfolders are not trusted, so a repository nested in a trusted folder (a dependency, a
 * cloned example) never gets its `.env` read by accident.
 *
 * @example
 * if (await isTrustedFolder(stateDir, process.cwd())) dotenv = await loadDotenv('.env');
 */
export async function isTrustedFolder(stateDir: string, dir: string): Promise<boolean> {
  const folder = await canonicalFolder(dir);
  if (folder === undefined) return false;
  return (await readTrustedFolders(stateDir)).some((trusted) => trusted.path === folder);
}

/**
 * Adds `dir` (canonicalised) to the trust list of `stateDir`, with the SHA-256 of its `.env` (or
 * that it has none), so that a later change can be reported. Trusting a folder again records its
 * `.env` as it is now (`refreshed`), which ends the notices about its changes. The list is written
 * atomically with mode 0600.
 *
 * @throws a Node error when `dir` does not exist; SettingsFileError when its `.env` is not a
 * regular file or is over 1 MiB; StateError when the list cannot be read or written.
 * @example
 * const { folder, changed } = await trustFolder(stateDir, '.');
 */
export async function trustFolder(stateDir: string, dir: string): Promise<TrustChange> {
  const folder = await realpath(resolve(dir));
  const sha256 = await currentDotenvSha256(folder);
  return updateList(stateDir, (folders) => {
    const known = folders.find((trusted) => trusted.path === folder);
    if (known === undefined) {
      const added = { path: folder, trustedAt: new Date().toISOString(), dotenvSha256: sha256 };
      return { folder, folders: [...folders, added], changed: true };
    }
    if (known.dotenvSha256 === sha256) return { folder, folders, changed: false };
    const refreshed = { path: folder, trustedAt: known.trustedAt, dotenvSha256: sha256 };
    return {
      folder,
      folders: folders.map((trusted) => (trusted === known ? refreshed : trusted)),
      changed: true,
      refreshed: true,
    };
  });
}

/**
 * Compare the `.env` a trusted folder is about to be used with (`sha256` of its bytes) with the
 * one recorded when it was trusted. Returns what to tell the user, once per content: the content
 * told about is recorded with the trust (atomically), so the next run with the same `.env` is
 * quiet. A folder trusted before `.env` contents were recorded gets its current one recorded
 * (one notice, `unrecorded`). Undefined when there is nothing to say, or the folder is not trusted.
 * If the list cannot be written, the notice is still returned (and will be given again).
 *
 * @example
 * const notice = await noticeTrustedDotenv(stateDir, '/home/me/repo', settingsFileSha256(bytes));
 * if (notice?.change === 'changed') console.error('.env changed since it was trusted');
 */
export async function noticeTrustedDotenv(
  stateDir: string,
  dir: string,
  sha256: string,
): Promise<TrustedDotenvNotice | undefined> {
  const folder = await canonicalFolder(dir);
  if (folder === undefined) return undefined;
  let notice: TrustedDotenvNotice | undefined;
  const record = (folders: readonly TrustedFolder[]) => {
    const known = folders.find((trusted) => trusted.path === folder);
    if (known === undefined || known.dotenvSha256 === sha256 || known.noticedSha256 === sha256) {
      return { folder, folders, changed: false };
    }
    const unrecorded = known.dotenvSha256 === undefined;
    notice = { change: unrecorded ? 'unrecorded' : 'changed', trustedAt: known.trustedAt };
    const updated: TrustedFolder = unrecorded
      ? { path: folder, trustedAt: known.trustedAt, dotenvSha256: sha256 }
      : { ...known, noticedSha256: sha256 };
    return {
      folder,
      folders: folders.map((trusted) => (trusted === known ? updated : trusted)),
      changed: true,
    };
  };
  try {
    await updateList(stateDir, record);
  } catch (error) {
    if (notice === undefined) throw error;
  }
  return notice;
}

/**
 * Removes `dir` from the trust list of `stateDir`; a folder that no longer exists is removed by
 * the absolute path given.
 *
 * @example
 * const { changed } = await untrustFolder(stateDir, '/home/me/old-repo');
 */
export async function untrustFolder(stateDir: string, dir: string): Promise<TrustChange> {
  const folder = (await canonicalFolder(dir)) ?? resolve(dir);
  return updateList(stateDir, (folders) => {
    const kept = folders.filter((trusted) => trusted.path !== folder);
    return { folder, folders: kept, changed: kept.length !== folders.length };
  });
}

/**
 * Read, change and write the list under an in-process lock. Two tiny-claw processes changing the
 * list in the same instant can lose one change (each writes whole files, atomically); trusting is
 * a rare, manual step, and a lost record of a notice only means the notice is given once more, so
 * that is accepted rather than adding a cross-process lock.
 */
async function updateList(
  stateDir: string,
  change: (folders: readonly TrustedFolder[]) => {
    folder: string;
    folders: readonly TrustedFolder[];
    changed: boolean;
    refreshed?: boolean;
  },
): Promise<TrustChange> {
  const path = trustedFoldersPath(stateDir);
  return withPathLock(path, async () => {
    const { folder, folders, changed, refreshed } = change(await readTrustedFolders(stateDir));
    if (changed) await writeJsonAtomic(path, { version: 1, folders }, { mode: 0o600 });
    return { folder, changed, refreshed: refreshed === true };
  });
}

/** The canonical path of an existing `dir`, or undefined when it does not exist. */
async function canonicalFolder(dir: string): Promise<string | undefined> {
  try {
    return await realpath(resolve(dir));
  } catch (error) {
    if (isErrnoError(error, 'ENOENT') || isErrnoError(error, 'ENOTDIR')) return undefined;
    throw error;
  }
}
