import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errorMessage, StateError } from '../errors.js';

/** Options of {@link writeFileAtomic} and {@link writeJsonAtomic}. */
export interface AtomicWriteOptions {
  /** Permission bits of the written file. Default 0o600: state files may hold private data. */
  mode?: number;
}

/**
 * `mkdir -p` with mode 0o700 for every directory it creates; existing directories are left as they
 * are, because they may belong to the user (a workdir, `/tmp`).
 *
 * @example
 * await ensureDir(join(stateDir, 'sessions'));
 */
export async function ensureDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/**
 * Replace `path` with `data` so that a reader (or a crash) sees either the old content or the new
 * one, never a mix: temp file in the same directory → fsync → rename → fsync of the directory.
 *
 * @throws StateError naming `path` when anything fails; the temp file is removed and the old
 * content stays in place.
 *
 * @example
 * await writeFileAtomic(join(stateDir, 'settings.txt'), 'hello\n');
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const mode = options.mode ?? 0o600;
  const dir = dirname(path);
  // Same directory as the target: rename(2) is only atomic within one filesystem.
  const temp = join(dir, `.${basename(path)}.tmp-${randomBytes(6).toString('hex')}`);
  let handle: FileHandle | undefined;
  try {
    await ensureDir(dir);
    handle = await open(temp, 'wx', mode);
    await handle.writeFile(data);
    // open()'s mode is filtered by the umask; the caller asked for exact bits.
    await handle.chmod(mode);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, path);
  } catch (error) {
    await handle?.close().catch(() => {});
    await rm(temp, { force: true }).catch(() => {});
    throw new StateError(`Could not write ${path}: ${errorMessage(error)}`, { cause: error });
  }
  await syncDirectory(dir);
}

/**
 * {@link writeFileAtomic} of `value` as pretty JSON (2 spaces) with a trailing newline.
 *
 * @example
 * await writeJsonAtomic(join(dir, 'meta.json'), { schemaVersion: 1 });
 */
export async function writeJsonAtomic(
  path: string,
  value: unknown,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const text = JSON.stringify(value, null, 2);
  if (text === undefined) {
    throw new StateError(`Could not write ${path}: the value has no JSON representation`);
  }
  await writeFileAtomic(path, `${text}\n`, options);
}

/**
 * Without this a crash can undo the rename on ext4/XFS. Best effort: some platforms and
 * filesystems refuse to open or fsync a directory, and the data itself is already safe.
 */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Best effort, see above.
  } finally {
    await handle?.close().catch(() => {});
  }
}
