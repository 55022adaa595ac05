import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

function isExecutableFile(candidate: string): boolean {
  try {
    accessSync(candidate, constants.X_OK);
    return statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/**
 * The absolute path of `name`: `preferred` first when it is an executable file, else the first
 * executable `name` in the directories of `searchPath` (a `PATH` value). Undefined when none.
 *
 * @example
 * findExecutable('bwrap', process.env.PATH, ['/usr/bin/bwrap']); // '/usr/bin/bwrap'
 */
export function findExecutable(
  name: string,
  searchPath: string | undefined,
  preferred: readonly string[] = [],
): string | undefined {
  for (const candidate of preferred) if (isExecutableFile(candidate)) return candidate;
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    // An empty PATH entry means the current directory: never trust that for a security tool.
    if (dir === '' || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
