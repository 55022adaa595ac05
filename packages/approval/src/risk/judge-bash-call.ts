import { resolve } from 'node:path';
import { errorMessage } from '@tiny-claw/core';
import { z } from 'zod';
import type { BashScene } from './bash-scene.js';
import { ruleName } from './command-rules.js';
import { judgeShellCommand } from './judge-shell-command.js';
import { readFindings } from './path-findings.js';
import { redirectWriteFindings } from './redirect-writes.js';
import type { ResolvedRiskPolicy } from './risk-policy-options.js';
import { approval, deny, type RiskFinding } from './risk-verdict.js';
import { analyseShellCommand, type ShellAnalysis } from './shell/analyse-shell-command.js';
import { splitArguments } from './shell/option-scan.js';
import type { ShellProblemKind } from './shell/shell-problem.js';
import { snippet } from './shell/snippet.js';
import { locate, placeOf, type WorkspacePaths, workspacePaths } from './workspace-paths.js';

const bashArguments = z.looseObject({ command: z.string(), cwd: z.string().optional() });

/**
 * What each kind of shell problem means to the person asked.
 *
 * @example
 * PROBLEM_REASONS.syntax_error; // 'the command does not parse as bash'
 */
export const PROBLEM_REASONS: Readonly<Record<ShellProblemKind, string>> = {
  syntax_error: 'the command does not parse as bash',
  invisible_characters:
    'the command contains control or invisible characters, which can hide what runs',
  over_budget: 'the command is too large or too deeply nested to analyse',
  function_definition: 'the command defines a shell function, which can replace any command',
  arithmetic_string: 'a quoted string sits where bash evaluates arithmetic, which can run commands',
  arithmetic_variable:
    'bash evaluates a variable as arithmetic, which runs commands hidden in its value',
  indirect_expansion:
    'a variable is expanded indirectly, which can run commands hidden in its value',
  unsupported_syntax: 'the command uses shell syntax the analysis does not follow',
};

// At most this many directories are followed through `cd`; more is itself a reason to ask.
const MAX_BASES = 32;

interface Directories {
  /** The cwd plus every directory inside the workdir a `cd` in the program may move to, or null when too many. */
  readonly bases: string[] | null;
  /** Whether a `cd` may leave for a directory the bases do not hold (outside, unknown, home, `-`). */
  readonly leaves: boolean;
}

export function directoriesOf(
  analysis: ShellAnalysis,
  cwd: string,
  paths: WorkspacePaths,
): Directories {
  const bases = [cwd];
  let leaves = false;
  for (const command of analysis.commands) {
    if (command.program === null) continue;
    const name = ruleName(command.program);
    if (name === 'popd') leaves = true;
    if (!['cd', 'pushd'].includes(name)) continue;
    const target = splitArguments(command.args).operands[0];
    if (target === undefined || target.value === null || target.value === '-') {
      leaves = true;
      continue;
    }
    for (const location of locate(target, bases, paths)) {
      if (location.place !== 'inside' && location.place !== 'git') leaves = true;
      if (location.path === null || bases.includes(location.path)) continue;
      if (location.place !== 'inside' && location.place !== 'git') continue;
      if (bases.length >= MAX_BASES) return { bases: null, leaves: true };
      bases.push(location.path);
    }
  }
  return { bases, leaves };
}

export function redirectFindings(analysis: ShellAnalysis, scene: BashScene): RiskFinding[] {
  return analysis.redirects.flatMap((redirect) => {
    if (redirect.target === null) return [];
    const findings: RiskFinding[] = [];
    if (redirect.writes)
      findings.push(...redirectWriteFindings(redirect.target, scene, redirect.text));
    if (redirect.reads) findings.push(...readFindings(redirect.target, scene, 'contents'));
    return findings;
  });
}

/**
 * Judge a `bash` call: read its command as a shell program and judge every command, redirection
 * and problem in it, plus the directory it runs in.
 *
 * @example
 * await judgeBashCall({ command: 'ls && rm -rf x' }, policy); // [deny('deletes files recursively (`rm -rf x`)')]
 */
export async function judgeBashCall(
  args: Record<string, unknown>,
  policy: ResolvedRiskPolicy,
): Promise<RiskFinding[]> {
  const parsed = bashArguments.safeParse(args);
  if (!parsed.success) return [approval('the bash call has no command string to check')];
  const paths = workspacePaths(policy.workdir, policy.protectedPaths);
  const cwd = resolve(policy.workdir, parsed.data.cwd ?? '.');
  const findings: RiskFinding[] = [];
  const cwdPlace = placeOf(cwd, paths);
  const shownCwd = `\`${snippet(parsed.data.cwd ?? '.')}\``;
  if (cwdPlace === 'protected')
    findings.push(deny(`runs inside a protected path (cwd ${shownCwd})`));
  else if (cwdPlace !== 'inside' && cwdPlace !== 'git')
    findings.push(approval(`runs outside the workdir (cwd ${shownCwd})`));
  let analysis: ShellAnalysis;
  try {
    analysis = await analyseShellCommand(parsed.data.command);
  } catch (error) {
    return [
      ...findings,
      approval(
        `the shell analyser could not be loaded (${errorMessage(error)}), so the command cannot be checked`,
      ),
    ];
  }
  for (const problem of analysis.problems)
    findings.push(approval(`${PROBLEM_REASONS[problem.kind]} (${problem.detail})`));
  const { bases, leaves } = directoriesOf(analysis, cwd, paths);
  if (bases === null) findings.push(approval('the command changes directory too often to follow'));
  const scene: BashScene = {
    paths,
    cwd,
    bases: bases ?? [cwd],
    commands: analysis.commands,
    sandbox: policy.sandbox,
    leavesWorkdir: leaves,
  };
  for (const command of analysis.commands) findings.push(...judgeShellCommand(command, scene));
  findings.push(...redirectFindings(analysis, scene));
  return findings;
}
