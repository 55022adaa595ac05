import { lstat } from 'node:fs/promises';
import { StateError } from '@tiny-claw/core';
import { isErrnoError } from '@tiny-claw/core/utils';
import type { z } from 'zod';
import { readJsonFile, writeJsonAtomic } from '../files/index.js';

/**
 * Read a record file: undefined when absent, the validated value otherwise. A corrupt file (empty,
 * NUL bytes, trailing garbage, another schema version) is moved aside as `<name>.unreadable-<ts>`
 * and reported, never replaced. A symbolic link is refused rather than followed: a record must be
 * the file the state dir holds, not whatever a link points to.
 *
 * @throws QuarantinedFileError (a StateError) for a corrupt file; StateError for a link or a
 * non-regular file.
 *
 * @example
 * const record = await readRecordFile(path, approvalRecordSchema);
 */
export async function readRecordFile<T>(
  path: string,
  schema: z.ZodType<T>,
): Promise<T | undefined> {
  try {
    const info = await lstat(path);
    if (info.isSymbolicLink()) {
      throw new StateError(
        `${path} is a symbolic link; state records are never read through links. ` +
          'Remove the link (and check who created it) before deciding this request.',
      );
    }
    if (!info.isFile()) {
      throw new StateError(`${path} is not a regular file; move it aside and try again.`);
    }
  } catch (error) {
    if (isErrnoError(error, 'ENOENT')) return undefined;
    throw error;
  }
  return readJsonFile(path, schema);
}

/**
 * Write a record atomically (temp file, fsync, rename), 0600 in a 0700 directory.
 *
 * @example
 * await writeRecordFile(path, record);
 */
export function writeRecordFile(path: string, value: unknown): Promise<void> {
  return writeJsonAtomic(path, value, { mode: 0o600 });
}

/**
 * Whether anything (a file, a link, a directory) exists at `path`.
 *
 * @example
 * if (await entryExists(path)) throw new StateError('already there');
 */
export async function entryExists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (isErrnoError(error, 'ENOENT') || isErrnoError(error, 'ENOTDIR')) return false;
    throw error;
  }
}
