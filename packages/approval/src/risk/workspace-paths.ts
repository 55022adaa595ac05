import { homedir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { expandBraces } from './shell/brace-expansion.js';
import { globSegmentMatches } from './shell/glob-segment.js';
import type { ShellWord } from './shell/shell-word.js';

/**
 * Where a path lands:
 * - `inside`: in the workdir, outside `.git` and the protected paths;
 * - `git`: in a `.git` directory, at any depth;
 * - `protected`: in a protected path (the state dir);
 * - `outside`: anywhere else on the machine;
 * - `device`: a harmless device (`/dev/null`, `/dev/stdout`…);
 * - `network`: bash's `/dev/tcp` and `/dev/udp` sockets;
 * - `unknown`: computed at run time, so it could be any of the above.
 *
 * @example
 * const place: PathPlace = 'git';
 */
export type PathPlace =
  | 'inside'
  | 'git'
  | 'protected'
  | 'outside'
  | 'device'
  | 'network'
  | 'unknown';

/**
 * The workspace a path is judged against.
 *
 * @example
 * const paths: WorkspacePaths = { workdir: '/w', protectedPaths: ['/w/.state'], home: '/home/me' };
 */
export interface WorkspacePaths {
  readonly workdir: string;
  readonly protectedPaths: readonly string[];
  readonly home: string;
}

/**
 * A path a command touches, where it lands, and the absolute path (or glob pattern) when known.
 *
 * @example
 * const location: Location = { place: 'inside', path: '/w/src/*.ts', glob: true };
 */
export interface Location {
  readonly place: PathPlace;
  readonly path: string | null;
  readonly glob: boolean;
}

const HARMLESS_DEVICES = new Set([
  '/dev/null',
  '/dev/zero',
  '/dev/stdin',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/tty',
]);
// `$HOME/…` and `${HOME}/…` with a plain literal rest: the one expansion worth resolving.
const HOME_PREFIX = /^(?:"?\$HOME"?|"?\$\{HOME\}"?)((?:\/[A-Za-z0-9._@+-]*)*)$/;
const GLOB_SEGMENT = /[*?[]/;

/**
 * Whether `path` is `root` or inside it.
 *
 * @example
 * isWithin('/w/a', '/w'); // true
 */
export function isWithin(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The workspace for a validated policy: the user's home resolves `~` and `$HOME`.
 *
 * @example
 * workspacePaths('/w', []);
 */
export function workspacePaths(workdir: string, protectedPaths: readonly string[]): WorkspacePaths {
  return { workdir, protectedPaths, home: homedir() };
}

/**
 * Where an absolute, normalised path lands.
 *
 * @example
 * placeOf('/w/.git/config', paths); // 'git'
 */
export function placeOf(path: string, paths: WorkspacePaths): PathPlace {
  if (HARMLESS_DEVICES.has(path) || path.startsWith('/dev/fd/')) return 'device';
  if (path.startsWith('/dev/tcp/') || path.startsWith('/dev/udp/')) return 'network';
  if (paths.protectedPaths.some((root) => isWithin(path, root))) return 'protected';
  const inside = isWithin(path, paths.workdir);
  const segments = (inside ? relative(paths.workdir, path) : path).split(sep);
  if (segments.some((segment) => segment.toLowerCase() === '.git')) return 'git';
  return inside ? 'inside' : 'outside';
}

function staticPath(
  value: string,
  bases: readonly string[],
  paths: WorkspacePaths,
): string[] | 'outside' {
  if (value === '~' || value.startsWith('~/')) return [resolve(paths.home, `.${value.slice(1)}`)];
  // `~user/…` names another user's home: outside whatever the user.
  if (value.startsWith('~')) return 'outside';
  if (isAbsolute(value)) return [resolve(value)];
  return bases.map((base) => resolve(base, value));
}

function staticLocations(
  value: string,
  bases: readonly string[],
  paths: WorkspacePaths,
): Location[] {
  const resolved = staticPath(value, bases, paths);
  if (resolved === 'outside') return [{ place: 'outside', path: null, glob: false }];
  return resolved.map((path) => ({ place: placeOf(path, paths), path, glob: false }));
}

function patternLocations(
  value: string,
  bases: readonly string[],
  paths: WorkspacePaths,
): Location[] {
  const segments = value.split('/');
  const firstGlob = segments.findIndex((segment) => GLOB_SEGMENT.test(segment));
  const literal =
    segments.slice(0, Math.max(firstGlob, 0)).join('/') || (value.startsWith('/') ? '/' : '.');
  const roots = staticPath(literal, bases, paths);
  if (roots === 'outside') return [{ place: 'outside', path: null, glob: true }];
  const rest = segments.slice(firstGlob);
  const gitLike = rest.some((segment) => globSegmentMatches(segment, '.git'));
  return roots.map((root) => {
    const place = placeOf(root, paths);
    const pattern = `${root}/${rest.join('/')}`;
    return { place: place === 'inside' && gitLike ? 'git' : place, path: pattern, glob: true };
  });
}

// A word the shell expands: each brace alternative, then each glob by its literal directory.
function expandedLocations(
  value: string,
  bases: readonly string[],
  paths: WorkspacePaths,
): Location[] {
  const words = expandBraces(value);
  if (words === null) return [{ place: 'unknown', path: null, glob: true }];
  return words.flatMap((word) =>
    GLOB_SEGMENT.test(word)
      ? patternLocations(word, bases, paths)
      : staticLocations(word, bases, paths),
  );
}

/**
 * Where a word naming a path may land, once per directory it may be relative to (the command's
 * cwd and any directory a `cd` in the same command moves to). A word computed at run time is
 * `unknown`, unless the literal text before the expansion already fixes a directory outside the
 * workdir, in `.git` or in a protected path.
 *
 * @example
 * locate(word('~/.bashrc'), ['/w'], paths); // [{ place: 'outside', path: '/home/me/.bashrc', glob: false }]
 */
export function locate(
  word: ShellWord,
  bases: readonly string[],
  paths: WorkspacePaths,
): Location[] {
  if (word.value !== null) {
    return word.expands
      ? expandedLocations(word.value, bases, paths)
      : staticLocations(word.value, bases, paths);
  }
  // `<(cmd)` and `>(cmd)` name a pipe to a command, which is judged on its own.
  if (/^[<>]\(/.test(word.text)) return [{ place: 'device', path: null, glob: false }];
  const home = HOME_PREFIX.exec(word.text);
  if (home !== null) {
    const path = resolve(paths.home, `.${home[1] ?? ''}`);
    return [{ place: placeOf(path, paths), path, glob: false }];
  }
  const slash = word.prefix.lastIndexOf('/');
  if (slash >= 0) {
    const directory = word.prefix.slice(0, slash) || '/';
    const fixed = staticPath(directory, bases, paths);
    if (fixed === 'outside') return [{ place: 'outside', path: null, glob: false }];
    const places = fixed.map((path) => placeOf(path, paths));
    if (places.every((place) => place === 'git' || place === 'protected' || place === 'outside')) {
      return fixed.map((path, index) => ({ place: places[index] as PathPlace, path, glob: false }));
    }
  }
  return [{ place: 'unknown', path: null, glob: false }];
}
