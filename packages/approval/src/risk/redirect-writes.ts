import { isAbsolute, relative, sep } from 'node:path';
import type { BashScene } from './bash-scene.js';
import { writeFindings } from './path-findings.js';
import { PROTECTED_FILE_RULES } from './protected-files.js';
import { approval, type RiskFinding } from './risk-verdict.js';
import type { ShellWord } from './shell/shell-word.js';
import { snippet } from './shell/snippet.js';
import { locate } from './workspace-paths.js';

/**
 * Findings for a redirection that writes `target` (`> out.txt`, `>> notes.md`, `2> err.log`).
 * Where a write is refused or asked anywhere (`.git`, a protected path, outside the workdir, a
 * network socket, a path computed at run time) it is here too. A plain file inside the workdir is
 * allowed, as the `write` tool would be: unless it is one the `write` tool asks for (`.env*`, lock
 * files, `package.json`, CI configs…), its name is a glob, or a `cd` in the command may have left
 * the workdir so the relative name may land anywhere; those ask.
 *
 * @example
 * redirectWriteFindings(word('out.txt'), scene, '> out.txt'); // []
 * redirectWriteFindings(word('package.json'), scene, '> package.json'); // [approval(…)]
 */
export function redirectWriteFindings(
  target: ShellWord,
  scene: BashScene,
  shown: string,
): RiskFinding[] {
  const findings = writeFindings(target, scene, null, shown);
  const label = `\`${snippet(shown)}\``;
  const asked = (why: string) => approval(`${why} (${label})`);
  if (scene.leavesWorkdir && !isAbsolute(target.value ?? target.prefix))
    return [...findings, asked('writes a file through a redirection after leaving the workdir')];
  for (const location of locate(target, scene.bases, scene.paths)) {
    if (location.place !== 'inside' || location.path === null) continue;
    if (location.glob) {
      findings.push(asked('writes a file named by a glob through a redirection'));
      continue;
    }
    const segments = relative(scene.paths.workdir, location.path).split(sep);
    for (const rule of PROTECTED_FILE_RULES)
      if (rule.matches(segments)) findings.push(asked(rule.reason));
  }
  return findings;
}
