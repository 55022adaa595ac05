import type { FileHandle } from 'node:fs/promises';
import { readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../path-guard.js';

/**
 * Where an opened file really is, compared with the workdir:
 * - `inside`: the descriptor leads to a file inside the workdir;
 * - `outside`: it leads elsewhere (a directory on the way was swapped for a symlink between the
 *   path guard and the open), so nothing read through it may be used.
 *
 * @example
 * const where: OpenedPlace = await openedPlace(handle, { root, path: abs });
 */
export type OpenedPlace = 'inside' | 'outside';

/**
 * The file a tool opened: the workdir's real path and the canonical path the guard returned.
 *
 * @example
 * const target: OpenedTarget = { root: '/repo', path: '/repo/src/a.ts' };
 */
export interface OpenedTarget {
  /** The workdir's real path. */
  root: string;
  /** The canonical path that was opened (inside `root`). */
  path: string;
}

/** What Linux appends to the `/proc/self/fd` link of a file removed while open. */
const DELETED_SUFFIX = ' (deleted)';

/**
 * The workdir's real path, from the guard's canonical `abs` and its `relative` path to it.
 *
 * @example
 * workdirRootOf('/repo/src/a.ts', 'src/a.ts'); // '/repo'
 * workdirRootOf('/repo', '.'); // '/repo'
 */
export function workdirRootOf(abs: string, relative: string): string {
  if (relative === '.' || relative === '') return abs;
  return path.resolve(abs, ...relative.split(path.sep).map(() => '..'));
}

/**
 * Check, after opening, that `handle` leads to a file inside the workdir. The path guard looks
 * at the path before the open; a concurrent process can swap a directory on the way for a symlink
 * to an outside directory in between, and `O_NOFOLLOW` only protects the last component. So the
 * descriptor itself is asked where it is: on Linux `/proc/self/fd/<fd>` names the opened file's
 * real path, which is compared by component with the workdir. Without `/proc` (other systems)
 * the descriptor's device and inode are compared with those at the re-resolved path, whose real
 * path must still be the one opened; that narrows the window but cannot close it (Node has no
 * openat(2) for files).
 *
 * @example
 * if ((await openedPlace(handle, { root, path: abs })) === 'outside') return refuse();
 */
export async function openedPlace(handle: FileHandle, target: OpenedTarget): Promise<OpenedPlace> {
  let linked: string | undefined;
  try {
    linked = await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    linked = undefined;
  }
  if (linked !== undefined && path.isAbsolute(linked)) {
    const real = linked.endsWith(DELETED_SUFFIX) ? linked.slice(0, -DELETED_SUFFIX.length) : linked;
    return isInside(target.root, real) ? 'inside' : 'outside';
  }
  try {
    const [opened, now, real] = await Promise.all([
      handle.stat(),
      stat(target.path),
      realpath(target.path),
    ]);
    const same = opened.dev === now.dev && opened.ino === now.ino;
    return same && real === target.path && isInside(target.root, real) ? 'inside' : 'outside';
  } catch {
    // The path vanished or cannot be resolved any more: the descriptor cannot be vouched for.
    return 'outside';
  }
}
