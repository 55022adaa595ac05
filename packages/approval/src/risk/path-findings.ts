import type { BashScene } from './bash-scene.js';
import { globMayMatchSecret, isSecretSegment } from './protected-files.js';
import { approval, deny, type RiskFinding } from './risk-verdict.js';
import type { ShellWord } from './shell/shell-word.js';
import { snippet } from './shell/snippet.js';
import { type Location, locate, placeOf } from './workspace-paths.js';

// Where a write may not go, and why (outside the workdir: see outsideWrite).
const WRITE_REFUSALS: Readonly<Partial<Record<Location['place'], string>>> = {
  git: 'writes into the .git directory',
  protected: 'writes into a protected path',
};

// A write outside the workdir: the sandbox would make it fail, so approving could not help and it
// is refused; without a sandbox a person may approve it; when nobody said, it is refused.
function outsideWrite(scene: BashScene, label: string): RiskFinding {
  if (scene.sandbox === 'bwrap')
    return deny(`writes outside the sandbox's writable area (${label})`);
  if (scene.sandbox === 'off') return approval(`writes outside the workdir (${label})`);
  return deny(`writes outside the workdir (${label})`);
}

/**
 * Findings for a path a command writes: refused in `.git` or a protected path; outside the
 * workdir refused under the sandbox (or when the sandbox is not stated) and asked without it;
 * asked when it is computed at run time or is a network socket; `inside` adds the
 * given reason (a redirection asks, a command that writes already asks for itself).
 *
 * @example
 * writeFindings(word('/etc/hosts'), scene, null); // [deny('writes outside the workdir (`/etc/hosts`)')]
 */
export function writeFindings(
  target: ShellWord,
  scene: BashScene,
  insideReason: string | null,
  shown = target.text,
): RiskFinding[] {
  const label = `\`${snippet(shown)}\``;
  return locate(target, scene.bases, scene.paths).flatMap((location): RiskFinding[] => {
    const refusal = WRITE_REFUSALS[location.place];
    if (refusal !== undefined) return [deny(`${refusal} (${label})`)];
    if (location.place === 'outside') return [outsideWrite(scene, label)];
    if (location.place === 'network') return [approval(`opens a network connection (${label})`)];
    if (location.place === 'unknown')
      return [approval(`writes to a path computed at run time (${label})`)];
    if (location.place === 'inside' && insideReason !== null)
      return [approval(`${insideReason} (${label})`)];
    return [];
  });
}

function mayHoldSecrets(location: Location, scene: BashScene): boolean {
  if (location.path === null) return false;
  const workdir = scene.paths.workdir;
  const relative = location.path.startsWith(`${workdir}/`)
    ? location.path.slice(workdir.length + 1)
    : location.path;
  const segments = relative.split('/');
  return location.glob
    ? segments.some((segment) =>
        /[*?[{]/.test(segment) ? globMayMatchSecret(segment) : isSecretSegment(segment),
      )
    : segments.some(isSecretSegment);
}

/**
 * Findings for a path a read-only command reads (`contents`) or lists (`names`): asked when it
 * leaves the workdir, enters a protected path, is a network socket, may hold secrets (contents
 * only), or is computed at run time (contents only).
 *
 * @example
 * readFindings(word('.env'), scene, 'contents'); // [approval('reads a file that may hold secrets (`.env`)')]
 */
export function readFindings(
  target: ShellWord,
  scene: BashScene,
  mode: 'contents' | 'names',
): RiskFinding[] {
  const label = `\`${snippet(target.text)}\``;
  return locate(target, scene.bases, scene.paths).flatMap((location): RiskFinding[] => {
    switch (location.place) {
      case 'outside':
        return [
          approval(`${mode === 'contents' ? 'reads' : 'looks'} outside the workdir (${label})`),
        ];
      case 'protected':
        return [approval(`reads a protected path (${label})`)];
      case 'network':
        return [approval(`opens a network connection (${label})`)];
      case 'unknown':
        // Commit ids name revisions; read as a path, one is a plain file of the directory the
        // command runs in, which is judged inside the workdir only when every such directory is.
        if (
          target.commitIds === true &&
          !scene.leavesWorkdir &&
          scene.bases.every((base) => placeOf(base, scene.paths) === 'inside')
        )
          return [];
        return mode === 'contents'
          ? [approval(`reads files whose names are computed at run time (${label})`)]
          : [];
      case 'inside':
      case 'git':
        return mode === 'contents' && mayHoldSecrets(location, scene)
          ? [approval(`reads files that may hold secrets (${label})`)]
          : [];
      default:
        return [];
    }
  });
}
