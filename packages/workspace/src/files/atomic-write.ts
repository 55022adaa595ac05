import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { errorMessage, StateError } from '@tiny-claw/core';
import { isErrnoError } from '@tiny-claw/core/utils';

/** Options of {@link writeFileAtomic} and {@link writeJsonAtomic}. */
export interface AtomicWriteOptions {
  /** Permission bits of the written file. Default 0o600: state files may hold private data. */
  mode?: number;
}

/**
 * `mkdir -p` with mode 0o700 for every directory it creates; existing directories are left as they
 * are, because they may belong to the user (a workdir, `/tmp`).
 *
 * Hand-written instead of `mkdir(dir, { recursive: true })`: Node's recursive mkdir retries for
 * ever when a parent exists but creating the child still fails with ENOENT, which is what /proc
 * and other pseudo filesystems answer, so a state dir there spun a CPU at full load. Here every
 * level is tried at most twice, so the walk ends after at most twice the path's depth.
 *
 * @throws the Node error of the step that failed; ENOENT with a message that says the parent
 * exists when the filesystem refuses to create directories, ENOTDIR when a file is in the way.
 * @example
 * await ensureDir(join(stateDir, 'sessions'));
 */
export async function ensureDir(dir: string): Promise<void> {
  // Walk up to the deepest directory that exists (usually `dir` itself: one mkdir, one stat)…
  const missing: string[] = [];
  let at = resolve(dir);
  for (;;) {
    try {
      await mkdir(at, { mode: 0o700 });
      break;
    } catch (error) {
      if (isErrnoError(error, 'EEXIST')) {
        await assertDirectory(at);
        break;
      }
      const parent = dirname(at);
      if (!isErrnoError(error, 'ENOENT') || parent === at) throw error;
      missing.push(at);
      at = parent;
    }
  }
  // …then create the missing ones below it, each once.
  for (const child of missing.reverse()) {
    try {
      await mkdir(child, { mode: 0o700 });
    } catch (error) {
      // Created by someone else in the meantime: fine if it is a directory.
      if (isErrnoError(error, 'EEXIST')) await assertDirectory(child);
      else if (isErrnoError(error, 'ENOENT')) {
        throw errnoError(
          'ENOENT',
          `cannot create the directory ${child}: its parent exists but refuses new entries ` +
            '(a pseudo filesystem such as /proc, /sys or /dev, or it was just removed)',
        );
      } else throw error;
    }
  }
}

async function assertDirectory(path: string): Promise<void> {
  if (!(await stat(path)).isDirectory()) {
    throw errnoError('ENOTDIR', `${path} exists and is not a directory`);
  }
}

function errnoError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/** Longest file name (in bytes) that Linux, macOS and Windows filesystems accept. */
const MAX_NAME_BYTES = 255;

/**
 * A fresh, unpredictable name for the temp file that will be renamed onto `name`, in the same
 * directory: `.<name>.tmp-<12 hex>`, or `.tc-<12 hex>.tmp` when that would be longer than 255
 * bytes (so every name the path guard accepts can be written). Both are hidden dot-files.
 *
 * @example
 * atomicTempName('state.json'); // '.state.json.tmp-1f2e3d4c5b6a'
 * atomicTempName('a'.repeat(255)); // '.tc-1f2e3d4c5b6a.tmp'
 */
export function atomicTempName(name: string): string {
  const hex = randomBytes(6).toString('hex');
  const long = `.${name}.tmp-${hex}`;
  return Buffer.byteLength(long, 'utf8') <= MAX_NAME_BYTES ? long : `.tc-${hex}.tmp`;
}

/**
 * Replace `path` with `data` so that a reader (or a crash) sees either the old content or the new
 * one, never a mix: temp file in the same directory → fsync → rename → fsync of the directory.
 * Every step goes by path, so it is meant for directories this process owns (the state dir); to
 * write below a directory that other processes can change (a workdir), use
 * `writeFileConfined` (./confined-write.ts).
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
  const temp = join(dir, atomicTempName(basename(path)));
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
