import type { BashScene } from './bash-scene.js';
import { globMayMatchSecret, isSecretSegment } from './protected-files.js';
import { approval, deny, type RiskFinding } from './risk-verdict.js';
import type { ShellWord } from './shell/shell-word.js';
import { snippet } from './shell/snippet.js';
import { type Location, locate } from './workspace-paths.js';

// Where a write may not go, and why.
const WRITE_REFUSALS: Readonly<Partial<Record<Location['place'], string>>> = {
  git: 'writes into the .git directory',
  protected: 'writes into a protected path',
  outside: 'writes outside the workdir',
};

/**
 * Findings for a path a command writes: refused in `.git`, a protected path or outside the
 * workdir; asked when it is computed at run time or is a network socket; `inside` adds the
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
