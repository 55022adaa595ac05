import { realpath } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { isErrnoError, readJsonFile, withPathLock, writeJsonAtomic } from '@tiny-claw/core/utils';
import { z } from 'zod';

/** Name of the trust list inside the state dir. */
export const TRUSTED_FOLDERS_FILE = 'trusted-folders.json';

/**
 * One folder whose `.env` tiny-claw reads: its canonical path (symlinks resolved) and when it was
 * trusted.
 *
 * @example
 * const folder: TrustedFolder = { path: '/home/me/repo', trustedAt: '2026-12-01T10:00:00.000Z' };
 */
export interface TrustedFolder {
  readonly path: string;
  readonly trustedAt: string;
}

/**
 * What {@link trustFolder} or {@link untrustFolder} did: the canonical folder and whether the list
 * changed (false when it was already trusted, or was not trusted).
 *
 * @example
 * const { folder, changed } = await trustFolder(stateDir, process.cwd());
 */
export interface TrustChange {
  readonly folder: string;
  readonly changed: boolean;
}

const trustedFoldersSchema = z.object({
  version: z.literal(1),
  folders: z.array(
    z.object({
      path: z.string().refine(isAbsolute, 'expected an absolute path'),
      trustedAt: z.iso.datetime(),
    }),
  ),
});

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
 * Adds `dir` (canonicalised) to the trust list of `stateDir`. The list is written atomically with
 * mode 0600.
 *
 * @throws a Node error when `dir` does not exist; StateError when the list cannot be read or written.
 * @example
 * const { folder, changed } = await trustFolder(stateDir, '.');
 */
export async function trustFolder(stateDir: string, dir: string): Promise<TrustChange> {
  const folder = await realpath(resolve(dir));
  return updateList(stateDir, (folders) => {
    if (folders.some((trusted) => trusted.path === folder)) return { folder, folders };
    return { folder, folders: [...folders, { path: folder, trustedAt: new Date().toISOString() }] };
  });
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
  return updateList(stateDir, (folders) => ({
    folder,
    folders: folders.filter((trusted) => trusted.path !== folder),
  }));
}

/**
 * Read, change and write the list under an in-process lock. Two tiny-claw processes changing the
 * list in the same instant can lose one change (each writes whole files, atomically); trusting is
 * a rare, manual step, so that is accepted rather than adding a cross-process lock.
 */
async function updateList(
  stateDir: string,
  change: (folders: readonly TrustedFolder[]) => {
    folder: string;
    folders: readonly TrustedFolder[];
  },
): Promise<TrustChange> {
  const path = trustedFoldersPath(stateDir);
  return withPathLock(path, async () => {
    const before = await readTrustedFolders(stateDir);
    const { folder, folders } = change(before);
    const changed = folders.length !== before.length;
    if (changed) await writeJsonAtomic(path, { version: 1, folders }, { mode: 0o600 });
    return { folder, changed };
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
