import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPostgresBin } from './find-binaries.js';
import { startPostgres } from './start-postgres.js';

const root = mkdtempSync(join(tmpdir(), 'tc-pgbin-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder holding the named (empty) programs. */
function folder(name: string, programs: string[]): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const program of programs) writeFileSync(join(dir, program), '');
  return dir;
}

describe('findPostgresBin', () => {
  const onPath = folder('path-bin', ['initdb', 'pg_ctl']);
  const half = folder('half-bin', ['initdb']);
  const debian = join(root, 'debian');
  folder('debian/13/bin', ['initdb', 'pg_ctl']);
  folder('debian/15/bin', ['initdb', 'pg_ctl']);
  folder('debian/16/bin', ['initdb']);
  const empty = join(root, 'none');

  it.each([
    ['the PATH first', `${half}:${onPath}`, debian, onPath],
    [
      "Debian's newest complete version when the PATH has none",
      half,
      debian,
      join(debian, '15', 'bin'),
    ],
    ['nothing when neither has both programs', half, empty, undefined],
    ['nothing for an empty PATH and no Debian folder', '', empty, undefined],
  ])('finds %s', (_rule, path, debianRoot, expected) => {
    expect(findPostgresBin(path, debianRoot)).toBe(expected);
  });
});

describe('startPostgres without PostgreSQL', () => {
  it('fails, saying to install the postgresql package, instead of skipping', async () => {
    const none = join(root, 'nothing-here');
    await expect(startPostgres({ path: none, debianRoot: none })).rejects.toThrow(
      'install the `postgresql` package',
    );
  });
});
