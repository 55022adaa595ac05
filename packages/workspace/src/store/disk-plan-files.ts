import { readFile, rm, rmdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { errorMessage, StateError } from '@tiny-claw/core';
import type { PlanFileAccess } from '@tiny-claw/core/store';
import { isErrnoError } from '@tiny-claw/core/utils';
import { withPathLock, writeFileAtomic } from '../files/index.js';

/**
 * Plan files in a directory on disk: atomic writes under a per-directory lock. The directory is
 * removed after a reset when nothing else (a person's notes) is in it.
 *
 * @example
 * const store = new PlanFileStore(diskPlanFiles('/state/sessions/cli-1a2b3c4d5e6f-default/plan'));
 */
export function diskPlanFiles(dir: string): PlanFileAccess {
  const absolute = resolve(dir);
  return {
    dir: absolute,
    read: (name) => readIfExists(join(absolute, name)),
    write: (name, text) => writeFileAtomic(join(absolute, name), text),
    async remove(name) {
      const path = join(absolute, name);
      try {
        await rm(path);
        return true;
      } catch (error) {
        if (isErrnoError(error, 'ENOENT')) return false;
        throw new StateError(`Could not delete ${path}: ${errorMessage(error)}`, { cause: error });
      }
    },
    exclusive: (fn) => withPathLock(absolute, fn),
    // The directory only held the plan; leave it when something else (a person's notes) is in it.
    cleanUp: () =>
      rmdir(absolute).then(
        () => undefined,
        () => undefined,
      ),
  };
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isErrnoError(error, 'ENOENT')) return undefined;
    throw new StateError(`Could not read ${path}: ${errorMessage(error)}`, { cause: error });
  }
}
