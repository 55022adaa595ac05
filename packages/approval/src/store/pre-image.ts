import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { JsonObject } from '@tiny-claw/core';
import { isErrnoError } from '@tiny-claw/core/utils';

/**
 * What a file looked like when approval was asked: by real path, the sha256 (hex) of its bytes,
 * `null` when it did not exist, `not_a_file` for a directory or other non-regular target, or
 * `unreadable` when this process could not read it.
 *
 * @example
 * const before: PreImage = { '/repo/.env': 'e3b0c442…', '/repo/new.txt': null };
 */
export type PreImage = Record<string, string | null>;

/** The file tools whose calls change a file named by their `path` argument. */
const FILE_CHANGING_TOOLS = new Set(['write', 'edit']);

/**
 * The pre-image of a call: for `write` and `edit`, the state of the file its `path` argument names
 * (resolved against `workdir`); for any other tool, or a call without a usable path, nothing. The
 * key is the real path of the deepest existing ancestor plus the rest of the path, so a directory
 * or a link swapped for a symlink since the request shows up as a different key.
 *
 * @example
 * await preImage({ name: 'edit', arguments: { path: 'src/a.ts' } }, '/repo'); // { '/repo/src/a.ts': '9c1e…' }
 */
export async function preImage(
  call: { name: string; arguments: JsonObject },
  workdir: string,
): Promise<PreImage> {
  const path = call.arguments.path;
  if (!FILE_CHANGING_TOOLS.has(call.name) || typeof path !== 'string' || path === '') return {};
  if (path.includes('\0')) return {};
  const target = await realTarget(resolve(workdir, path));
  return { [target]: await fileDigest(target) };
}

/**
 * The first path whose recorded state differs from the current one, or undefined when they match.
 *
 * @example
 * changedPath({ '/r/a': 'x' }, { '/r/a': 'y' }); // '/r/a'
 */
export function changedPath(recorded: PreImage, current: PreImage): string | undefined {
  const paths = new Set([...Object.keys(recorded), ...Object.keys(current)]);
  for (const path of [...paths].sort()) {
    if (!(path in recorded) || !(path in current) || recorded[path] !== current[path]) return path;
  }
  return undefined;
}

/** The real path of `path`, or of its deepest existing ancestor with the missing rest appended. */
async function realTarget(path: string): Promise<string> {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch (error) {
      const parent = dirname(current);
      // A dangling symlink or an unreadable directory ends here just like a missing entry.
      if (parent === current) return path;
      if (!isErrnoError(error, 'ENOENT') && !isErrnoError(error, 'ENOTDIR')) return path;
      missing.push(basename(current));
      current = parent;
    }
  }
}

async function fileDigest(path: string): Promise<string | null> {
  try {
    const info = await lstat(path);
    if (!info.isFile()) return 'not_a_file';
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch (error) {
    if (isErrnoError(error, 'ENOENT') || isErrnoError(error, 'ENOTDIR')) return null;
    // Compared, never shown: a file this process cannot read still has to read the same way later.
    return 'unreadable';
  }
}
