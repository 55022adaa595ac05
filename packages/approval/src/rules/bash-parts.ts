import { resolve } from 'node:path';
import { errorMessage } from '@tiny-claw/core';
import { z } from 'zod';
import type { BashScene } from '../risk/bash-scene.js';
import { directoriesOf, PROBLEM_REASONS, redirectFindings } from '../risk/judge-bash-call.js';
import { judgeShellCommand } from '../risk/judge-shell-command.js';
import type { ResolvedRiskPolicy } from '../risk/risk-policy-options.js';
import { approval, deny, type RiskFinding } from '../risk/risk-verdict.js';
import { analyseShellCommand } from '../risk/shell/analyse-shell-command.js';
import type { SimpleCommand } from '../risk/shell/simple-command.js';
import { snippet } from '../risk/shell/snippet.js';
import { placeOf, workspacePaths } from '../risk/workspace-paths.js';

const bashArguments = z.looseObject({ command: z.string(), cwd: z.string().optional() });

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
