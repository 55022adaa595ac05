import { constants as fsConstants, type Stats } from 'node:fs';
import {
  type FileHandle,
  lstat,
  mkdir,
  open,
  realpath,
  rename,
  stat,
  unlink,
} from 'node:fs/promises';
import path from 'node:path';
import { StateError } from '@tiny-claw/core';
import { atomicTempName } from './atomic-write.js';

/**
 * Why {@link writeFileConfined} refused or failed:
 * - `changed`: a directory on the way was replaced (by a symlink, a rename or a removal) while
 *   writing; nothing was written outside the root.
 * - `not_directory`: a parent component is an existing file, not a directory.
 * - `invalid_path`: `root` is not absolute, or `relativePath` is empty, absolute or has `.`/`..`.
 * - `io`: any other filesystem error (permissions, full disk, a directory at the target, …).
 */
export type ConfinedWriteReason = 'changed' | 'not_directory' | 'invalid_path' | 'io';

/**
 * Error of {@link writeFileConfined}. `detail` is the message without the leading
 * "Could not write <path>: ", ready to be shown to a user or a model.
 *
 * @example
 * if (error instanceof ConfinedWriteError && error.reason === 'changed') console.log(error.detail);
 */
export class ConfinedWriteError extends StateError {
  readonly reason: ConfinedWriteReason;
  readonly detail: string;

  constructor(
    relativePath: string,
    reason: ConfinedWriteReason,
    detail: string,
    options: { cause?: unknown } = {},
  ) {
    super(`Could not write ${relativePath}: ${detail}`, options);
    this.reason = reason;
    this.detail = detail;
  }
}

/**
 * Options of {@link writeFileConfined}.
 *
 * @example
 * const options: ConfinedWriteOptions = { mode: 0o644, createParents: true };
 */
export interface ConfinedWriteOptions {
  /** Permission bits of the written file, applied exactly (not filtered by the umask). Default 0o600. */
  mode?: number;
  /** Create missing parent directories (like `mkdir -p`), each one confined too. Default false. */
  createParents?: boolean;
  /** Mode of directories created by `createParents`, filtered by the umask. Default 0o777. */
  directoryMode?: number;
  /** Best effort: give the written file this owner (only possible when running as root). */
  owner?: { uid: number; gid: number };
  /**
   * Called after the temp file is complete and right before the rename, with the lstat of the
   * current target in the (confined) parent directory, or undefined when there is none. Throw to
   * abort: the temp file is removed and the error is rethrown unchanged.
   */
  beforeReplace?: (current: Stats | undefined) => void | Promise<void>;
}

const DIR_FLAGS =
  fsConstants.O_DIRECTORY === undefined || fsConstants.O_NOFOLLOW === undefined
    ? undefined
    : fsConstants.O_RDONLY | fsConstants.O_DIRECTORY | fsConstants.O_NOFOLLOW;
const TEMP_FLAGS =
  fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | (fsConstants.O_NOFOLLOW ?? 0);
const MAX_CREATE_ATTEMPTS = 3;

const CHANGED = 'the directory changed while writing';
const NOTHING_OUTSIDE = 'nothing was written outside the workdir';

/**
 * Atomically replace (or create) the file `relativePath` below `root` such that nothing is ever
 * created outside `root`, even when another process swaps a directory on the way for a symlink
 * between the caller's checks and the write (a check-to-use race). A reader sees
 * the old content or the new one, never a mix; on failure the temp file is removed.
 *
 * On Linux every directory from `root` down to the parent is opened one component at a time with
 * `O_DIRECTORY | O_NOFOLLOW` *through the previous directory's descriptor*
 * (`/proc/self/fd/<fd>/<name>`, i.e. openat(2) semantics), missing ones are created the same way,
 * and the temp file is created, renamed and the directory fsync'd through the parent's
 * descriptor. A component swapped for a symlink fails the open (ELOOP/ENOTDIR) instead of being
 * followed. A directory that is merely renamed (inside the root) keeps its descriptor, so the file
 * lands in it wherever it now is.
 *
 * Where `/proc/self/fd` does not work (other systems, /proc not mounted) the write goes by path:
 * the parent's realpath is re-checked right before a temp file + rename. Residual risk there:
 * a swap between that re-check and the open or rename is not caught (Node has no openat(2)).
 *
 * @param root Absolute, already realpath'd directory the write must stay in (trusted).
 * @param relativePath Path below `root` as returned by `path.relative` (no `.`/`..`/empty parts).
 * @returns The stats of the written file.
 * @throws ConfinedWriteError (a StateError) with a `reason`; errors thrown by `beforeReplace`
 * are rethrown unchanged.
 *
 * @example
 * const real = await realpath(workdir);
 * await writeFileConfined(real, 'src/new.ts', 'export {};\n', { mode: 0o644, createParents: true });
 */
export async function writeFileConfined(
  root: string,
  relativePath: string,
  data: string | Uint8Array,
  options: ConfinedWriteOptions = {},
): Promise<Stats> {
  const parts = splitRelative(relativePath);
  if (!parts || !path.isAbsolute(root)) {
    throw new ConfinedWriteError(
      relativePath,
      'invalid_path',
      'the root must be absolute and the path relative to it, without "." or ".." components',
    );
  }
  const name = parts[parts.length - 1] as string;
  const dirs = parts.slice(0, -1);
  const rootHandle = await openRoot(root, relativePath);
  if (!rootHandle || !(await procFdWorks(rootHandle))) {
    await rootHandle?.close().catch(() => undefined);
    return writeByPath(root, dirs, name, relativePath, data, options);
  }
  let dir = rootHandle;
  try {
    for (let i = 0; i < dirs.length; i += 1) {
      const shown = dirs.slice(0, i + 1).join('/');
      const next = await openChildDir(dir, dirs[i] as string, shown, relativePath, options);
      const previous = dir;
      dir = next;
      await previous.close().catch(() => undefined);
    }
    const at = (entry: string) => `/proc/self/fd/${dir.fd}/${entry}`;
    const stats = await replaceWith(at, name, relativePath, data, options);
    // Without this a crash can undo the rename on ext4/XFS. Best effort, like writeFileAtomic.
    await dir.sync().catch(() => undefined);
    return stats;
  } finally {
    await dir.close().catch(() => undefined);
  }
}

/** The components of a relative path, or undefined when it is not a plain relative path. */
function splitRelative(relativePath: string): string[] | undefined {
  if (relativePath === '' || relativePath.includes('\0') || path.isAbsolute(relativePath)) {
    return undefined;
  }
  const parts = relativePath.split(process.platform === 'win32' ? /[\\/]/ : '/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return undefined;
  return parts;
}

function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Short and free of `/proc/self/fd/…` paths, e.g. "could not rename the temp file (EIO)". */
function ioError(relativePath: string, step: string, error: unknown): ConfinedWriteError {
  const code = errnoOf(error) ?? (error instanceof Error ? error.message : String(error));
  return new ConfinedWriteError(relativePath, 'io', `could not ${step} (${code})`, {
    cause: error,
  });
}

function changedError(relativePath: string, what: string, cause?: unknown): ConfinedWriteError {
  return new ConfinedWriteError(
    relativePath,
    'changed',
    `${CHANGED} (${what}); ${NOTHING_OUTSIDE}`,
    {
      cause,
    },
  );
}

function notDirectoryError(relativePath: string, shown: string): ConfinedWriteError {
  return new ConfinedWriteError(relativePath, 'not_directory', `${shown} is not a directory`);
}

/** The root as a directory handle; undefined when the platform cannot open directories so. */
async function openRoot(root: string, relativePath: string): Promise<FileHandle | undefined> {
  if (process.platform !== 'linux' || DIR_FLAGS === undefined) return undefined;
  try {
    return await open(root, DIR_FLAGS);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENOENT') {
      throw changedError(relativePath, 'the root is no longer a directory', error);
    }
    throw ioError(relativePath, 'open the root directory', error);
  }
}

/** True when `/proc/self/fd/<fd>` leads to the very directory `handle` has open. */
async function procFdWorks(handle: FileHandle): Promise<boolean> {
  try {
    const [viaProc, direct] = await Promise.all([
      stat(`/proc/self/fd/${handle.fd}`),
      handle.stat(),
    ]);
    return viaProc.isDirectory() && viaProc.ino === direct.ino && viaProc.dev === direct.dev;
  } catch {
    return false;
  }
}

/** Open (creating it when allowed) the directory `name` inside `parent`, never via a symlink. */
async function openChildDir(
  parent: FileHandle,
  name: string,
  shown: string,
  relativePath: string,
  options: ConfinedWriteOptions,
): Promise<FileHandle> {
  const at = `/proc/self/fd/${parent.fd}/${name}`;
  for (let attempt = 0; attempt < MAX_CREATE_ATTEMPTS; attempt += 1) {
    try {
      return await open(at, DIR_FLAGS as number);
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ENOENT' && options.createParents) {
        try {
          await mkdir(at, { mode: options.directoryMode ?? 0o777 });
        } catch (mkdirError) {
          const mkdirCode = errnoOf(mkdirError);
          // EEXIST: created concurrently, or something else is there; the next open tells.
          if (mkdirCode === 'ENOENT') throw changedError(relativePath, `${shown} vanished`, error);
          if (mkdirCode !== 'EEXIST') throw ioError(relativePath, `create ${shown}`, mkdirError);
        }
        continue;
      }
      if (code === 'ENOENT') throw changedError(relativePath, `${shown} vanished`, error);
      if (code === 'ENOTDIR' || code === 'ELOOP') {
        const now = await lstat(at).catch(() => undefined);
        if (now && !now.isSymbolicLink() && !now.isDirectory()) {
          throw notDirectoryError(relativePath, shown);
        }
        throw changedError(relativePath, `${shown} was replaced by a symbolic link`, error);
      }
      throw ioError(relativePath, `open ${shown}`, error);
    }
  }
  throw changedError(relativePath, `${shown} kept disappearing while being created`);
}

/**
 * Temp file next to the target (via `at`, which maps an entry name of the parent to a path) →
 * write → exact mode → owner → fsync → optional check → rename. Removes the temp file on failure.
 */
async function replaceWith(
  at: (entry: string) => string,
  name: string,
  relativePath: string,
  data: string | Uint8Array,
  options: ConfinedWriteOptions,
): Promise<Stats> {
  const mode = options.mode ?? 0o600;
  const temp = at(atomicTempName(name));
  let handle: FileHandle | undefined;
  let created = false;
  let stats: Stats;
  let step = 'create the temp file';
  try {
    handle = await open(temp, TEMP_FLAGS, mode);
    created = true;
    step = 'write the temp file';
    await handle.writeFile(data);
    // open()'s mode is filtered by the umask; the caller asked for exact bits.
    await handle.chmod(mode);
    if (options.owner) {
      await handle.chown(options.owner.uid, options.owner.gid).catch(() => undefined);
    }
    await handle.sync();
    stats = await handle.stat();
    await handle.close();
    handle = undefined;
    if (options.beforeReplace) {
      step = 'check the target';
      const current = await lstat(at(name)).catch((error: unknown) => {
        if (errnoOf(error) === 'ENOENT') return undefined;
        throw error;
      });
      step = '';
      await options.beforeReplace(current);
    }
    step = 'rename the temp file onto the target';
    await rename(temp, at(name));
  } catch (error) {
    await handle?.close().catch(() => undefined);
    if (created) await unlink(temp).catch(() => undefined);
    if (step === '') throw error;
    if (errnoOf(error) === 'ENOENT') {
      throw changedError(relativePath, 'the directory or the temp file vanished', error);
    }
    throw ioError(relativePath, step, error);
  }
  return stats;
}

/**
 * Fallback without `/proc/self/fd`: path-based temp file + rename after a last realpath re-check
 * of the parent. A swap between that check and the open/rename is not caught.
 */
async function writeByPath(
  root: string,
  dirs: readonly string[],
  name: string,
  relativePath: string,
  data: string | Uint8Array,
  options: ConfinedWriteOptions,
): Promise<Stats> {
  const parent = path.join(root, ...dirs);
  const shown = dirs.length > 0 ? dirs.join('/') : '.';
  if (options.createParents && dirs.length > 0) {
    try {
      await mkdir(parent, { recursive: true, mode: options.directoryMode ?? 0o777 });
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ENOTDIR' || code === 'EEXIST') throw notDirectoryError(relativePath, shown);
      throw ioError(relativePath, `create ${shown}`, error);
    }
  }
  let expected: string;
  let real: string;
  try {
    expected = path.join(await realpath(root), ...dirs);
    real = await realpath(parent);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOTDIR') throw notDirectoryError(relativePath, shown);
    if (code === 'ENOENT') throw changedError(relativePath, `${shown} vanished`, error);
    throw ioError(relativePath, `resolve ${shown}`, error);
  }
  if (real !== expected) {
    throw changedError(relativePath, `${shown} now resolves to another directory`);
  }
  const stats = await replaceWith(
    (entry) => path.join(parent, entry),
    name,
    relativePath,
    data,
    options,
  );
  let dirHandle: FileHandle | undefined;
  try {
    dirHandle = await open(parent, 'r');
    await dirHandle.sync();
  } catch {
    // Best effort: some platforms cannot open or fsync a directory.
  } finally {
    await dirHandle?.close().catch(() => undefined);
  }
  return stats;
}
