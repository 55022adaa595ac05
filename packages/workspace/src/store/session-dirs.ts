import { readdir } from 'node:fs/promises';
import { errorMessage, StateError } from '@tiny-claw/core';
import { isErrnoError, validateSessionKey } from '@tiny-claw/core/utils';

/**
 * The names in `dir`, or none when it does not exist (or is not a directory).
 *
 * @throws StateError when it exists but cannot be listed.
 *
 * @example
 * const names = await listDirectory(join(stateDir, 'sessions'));
 */
export async function listDirectory(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (isErrnoError(error, 'ENOENT') || isErrnoError(error, 'ENOTDIR')) return [];
    throw new StateError(`Could not list ${dir}: ${errorMessage(error)}`, { cause: error });
  }
}

/**
 * Whether a directory name under `sessions/` is a session key (anything else there is ignored).
 *
 * @example
 * isSessionKey('cli-1a2b3c4d5e6f-default'); // true
 */
export function isSessionKey(name: string): boolean {
  try {
    validateSessionKey(name);
    return true;
  } catch {
    return false;
  }
}
