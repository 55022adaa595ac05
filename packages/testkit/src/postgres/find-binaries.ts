import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Where PostgreSQL's server programs are: the folder holding `initdb` and `pg_ctl` — on the PATH,
 * or under Debian's `/usr/lib/postgresql/<version>/bin` (the newest version), which is not on the
 * PATH. Undefined when neither has them.
 *
 * @example
 * findPostgresBin(); // '/usr/lib/postgresql/15/bin'
 */
export function findPostgresBin(
  path: string = process.env.PATH ?? '',
  debianRoot = '/usr/lib/postgresql',
): string | undefined {
  const has = (dir: string): boolean =>
    existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  for (const dir of path.split(delimiter)) if (dir !== '' && has(dir)) return dir;
  let versions: string[] = [];
  try {
    versions = readdirSync(debianRoot).filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  versions.sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const dir = join(debianRoot, version, 'bin');
    if (has(dir)) return dir;
  }
  return undefined;
}

/** What a test run says when PostgreSQL is missing: never a silent skip. */
export const POSTGRES_MISSING =
  'PostgreSQL server programs (initdb, pg_ctl) were not found on the PATH or under /usr/lib/postgresql/*/bin: install the `postgresql` package (apt-get install postgresql) to run the PostgreSQL tests.';
