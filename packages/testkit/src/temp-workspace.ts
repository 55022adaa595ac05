import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A throwaway directory tree for one test. */
export interface TempWorkspace {
  /** Real (symlink-free) absolute path of the directory. */
  dir: string;
  /** Absolute path of `relative` inside the workspace. */
  path(relative: string): string;
  /** Write a file (creating parents) and return its absolute path. */
  write(relative: string, content: string): Promise<string>;
  /** Remove the whole tree. */
  cleanup(): Promise<void>;
}

/**
 * Create a temp directory, optionally filled with `files` (relative path → content).
 *
 * @example
 * const ws = await createTempWorkspace({ 'a.txt': 'hello' });
 * await ws.cleanup();
 */
export async function createTempWorkspace(
  files: Record<string, string> = {},
  prefix = 'tiny-claw-ws-',
): Promise<TempWorkspace> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const workspace: TempWorkspace = {
    dir,
    path: (relative) => join(dir, relative),
    write: async (relative, content) => {
      const target = join(dir, relative);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
      return target;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
  for (const [relative, content] of Object.entries(files)) await workspace.write(relative, content);
  return workspace;
}
