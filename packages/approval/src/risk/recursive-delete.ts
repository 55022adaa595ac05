import { isAbsolute } from 'node:path';
import type { BashScene, Voice } from './bash-scene.js';
import type { RiskFinding } from './risk-verdict.js';
import { globSegmentMatches } from './shell/glob-segment.js';
import type { ShellWord } from './shell/shell-word.js';
import { isWithin, type Location, locate } from './workspace-paths.js';

const GLOB = /[*?[]/;

// Whether a glob pattern (absolute, as located) could expand to `path` or to a directory holding it.
function patternMayReach(pattern: string, path: string): boolean {
  const wanted = pattern.split('/');
  const segments = path.split('/');
  if (segments.length < wanted.length) return false;
  return wanted.every((segment, index) => {
    const name = segments[index] as string;
    return GLOB.test(segment) ? globSegmentMatches(segment, name) : segment === name;
  });
}

// Why deleting recursively what `location` names may not be done at all, or null when it stays
// inside the workdir, below its root and clear of `.git` and the protected paths.
function refusalOf(location: Location, scene: BashScene): string | null {
  const { workdir, home, protectedPaths } = scene.paths;
  switch (location.place) {
    case 'unknown':
      return 'deletes recursively a path computed at run time';
    case 'git':
      return 'deletes recursively in the .git directory';
    case 'protected':
      return 'deletes recursively in a protected path';
    case 'inside':
      break;
    default: {
      const path = location.path;
      if (path !== null && !location.glob && path === home) return 'deletes the home directory';
      if (path !== null && !location.glob && isWithin(workdir, path))
        return 'deletes a directory that holds the workdir';
      return 'deletes recursively outside the workdir';
    }
  }
  const path = location.path;
  if (path === null) return 'deletes recursively a path the analysis cannot place';
  if (!location.glob) return path === workdir ? 'deletes the whole workdir' : null;
  const rest = path.split('/');
  // `*/..` or `.*` (which older bash expands to `..`) climbs back to the root or out of it.
  if (
    rest.some(
      (segment) =>
        segment === '..' ||
        (GLOB.test(segment) &&
          (globSegmentMatches(segment, '.') || globSegmentMatches(segment, '..'))),
    )
  )
    return 'deletes recursively with a glob that may reach the workdir root or outside';
  if (protectedPaths.some((protectedPath) => patternMayReach(path, protectedPath)))
    return 'deletes recursively with a glob that may match a protected path';
  return null;
}

/**
 * Findings for a recursive delete of `targets` (`rm -r`, `find -delete`): each one that stays
 * inside the workdir, below its root and clear of `.git` and the protected paths asks like any
 * delete; one that reaches the workdir root, `.git`, a protected path, the home directory,
 * anything outside the workdir, or is computed at run time is refused. A glob is refused when it
 * may expand to any of those (`/*`, `.*`, a `..` after a glob); `*` in the workdir empties it but keeps the
 * root, and asks.
 *
 * @example
 * recursiveDeleteFindings([word('build')], scene, voice); // [voice.ask('deletes files recursively')]
 * recursiveDeleteFindings([word('..')], scene, voice); // [voice.refuse('deletes a directory that holds the workdir')]
 */
export function recursiveDeleteFindings(
  targets: readonly ShellWord[],
  scene: BashScene,
  voice: Voice,
): RiskFinding[] {
  const refusals = new Set(
    targets.flatMap((target) => {
      // After a `cd` out of the workdir, a relative path is relative to somewhere unknown.
      if (scene.leavesWorkdir && !isAbsolute(target.value ?? target.prefix))
        return ['deletes recursively relative to a directory outside the workdir'];
      return locate(target, scene.bases, scene.paths).flatMap((location) => {
        const refusal = refusalOf(location, scene);
        return refusal === null ? [] : [refusal];
      });
    }),
  );
  if (refusals.size === 0) return [voice.ask('deletes files recursively')];
  return [...refusals].map((refusal) => voice.refuse(refusal));
}
