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
import type { SimpleCommand } from './shell/simple-command.js';
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
 * A bash call's findings, split so that kept rules can judge each simple command: `before` and
 * `after` hold what belongs to the program as a whole (the directory it runs in and parse
 * problems; its redirections), `commands` each simple command with its own findings. Together, in
 * that order, they are the findings of the built-in policy (`assessCall`) for the call.
 *
 * @example
 * const parts = await bashParts({ command: 'npm test && rm -rf build' }, policy, true);
 * parts.commands.length; // 2
 */
export interface BashParts {
  readonly before: RiskFinding[];
  readonly commands: { readonly command: SimpleCommand; readonly findings: RiskFinding[] }[];
  readonly after: RiskFinding[];
}

/**
 * Judge a bash call part by part, the same way the built-in policy judges it as a whole. When the
 * tool is not one the policy judges (`judged` false), every part has no findings, but the
 * commands are still listed so that rules can tighten them.
 *
 * @example
 * const parts = await bashParts({ command: 'ls' }, policy, true);
 */
export async function bashParts(
  args: Record<string, unknown>,
  policy: ResolvedRiskPolicy,
  judged: boolean,
): Promise<BashParts> {
  const parsed = bashArguments.safeParse(args);
  if (!parsed.success)
    return {
      before: judged ? [approval('the bash call has no command string to check')] : [],
      commands: [],
      after: [],
    };
  const paths = workspacePaths(policy.workdir, policy.protectedPaths);
  const cwd = resolve(policy.workdir, parsed.data.cwd ?? '.');
  const general: RiskFinding[] = [];
  const cwdPlace = placeOf(cwd, paths);
  const shownCwd = `\`${snippet(parsed.data.cwd ?? '.')}\``;
  if (cwdPlace === 'protected')
    general.push(deny(`runs inside a protected path (cwd ${shownCwd})`));
  else if (cwdPlace !== 'inside' && cwdPlace !== 'git')
    general.push(approval(`runs outside the workdir (cwd ${shownCwd})`));
  let analysis: Awaited<ReturnType<typeof analyseShellCommand>>;
  try {
    analysis = await analyseShellCommand(parsed.data.command);
  } catch (error) {
    general.push(
      approval(
        `the shell analyser could not be loaded (${errorMessage(error)}), so the command cannot be checked`,
      ),
    );
    return { before: judged ? general : [], commands: [], after: [] };
  }
  for (const problem of analysis.problems)
    general.push(approval(`${PROBLEM_REASONS[problem.kind]} (${problem.detail})`));
  const { bases, leaves } = directoriesOf(analysis, cwd, paths);
  if (bases === null) general.push(approval('the command changes directory too often to follow'));
  const scene: BashScene = {
    paths,
    cwd,
    bases: bases ?? [cwd],
    commands: analysis.commands,
    sandbox: policy.sandbox,
    leavesWorkdir: leaves,
  };
  const commands = analysis.commands.map((command) => ({
    command,
    findings: judged ? judgeShellCommand(command, scene) : [],
  }));
  const after = judged ? redirectFindings(analysis, scene) : [];
  return { before: judged ? general : [], commands, after };
}
