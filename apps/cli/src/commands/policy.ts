import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  describeRule,
  describeSource,
  type PolicyJudgement,
  type RuleSet,
  type SourcedRule,
} from '@tiny-claw/approval';
import { createRuntimePolicy } from '@tiny-claw/runtime';
import { ExitCode } from '../exit-codes.js';
import { policyHelp } from '../help.js';
import { loadSettingsOnly } from '../load-settings.js';
import type { Output } from '../output.js';
import { type PolicyCheckArgs, type PolicyRulesArgs, parsePolicyArgs } from '../policy-args.js';
import { printable } from '../terminal-text.js';
import { UsageError } from '../usage-error.js';

// A command to judge is a line or a script, never more than this.
const MAX_STDIN_BYTES = 1024 * 1024;

/**
 * `tiny-claw policy check|rules`: judge a call the way `run` would, without running it, or list
 * the kept permission rules in force. The verdict is a report: exit 0 for any verdict, 2 for a
 * usage error, 78 for a bad rules file.
 *
 * @example
 * process.exitCode = await policyCommand(['check', '--', 'npm', 'test'], processOutput());
 */
export async function policyCommand(argv: string[], out: Output): Promise<number> {
  const args = parsePolicyArgs(argv);
  if (args.action === 'help' || args.help) {
    out.stdout(policyHelp);
    return ExitCode.ok;
  }
  const settings = await loadSettingsOnly();
  const workdir = await workdirOf(args, settings.workdir);
  const policy = createRuntimePolicy({ ...settings, workdir });
  if (args.action === 'rules') {
    printRules(await policy.rules(workdir), workdir, args, out);
    return ExitCode.ok;
  }
  const call =
    args.tool === 'bash'
      ? { name: 'bash', arguments: { command: args.command ?? (await readStdin()) } }
      : { name: args.tool, arguments: args.path === undefined ? {} : { path: args.path } };
  if (args.tool.startsWith('mcp__')) {
    // Whether an MCP tool is read-only is its server's word: the configured servers are started
    // (as `run` starts them) to hear it, then stopped.
    const { loadApplication } = await import('../load-app.js');
    const app = await loadApplication({ workdir, withoutModel: true, command: 'policy' });
    try {
      printJudgement(await app.policy.judge(call, workdir), args, out);
    } finally {
      await app.close();
    }
    return ExitCode.ok;
  }
  printJudgement(await policy.judge(call, workdir), args, out);
  return ExitCode.ok;
}

async function workdirOf(
  args: PolicyCheckArgs | PolicyRulesArgs,
  fallback: string,
): Promise<string> {
  if (args.workdir === undefined) return fallback;
  const workdir = resolve(process.cwd(), args.workdir);
  const info = await stat(workdir).catch(() => undefined);
  if (!info?.isDirectory())
    throw new UsageError(
      `--workdir ${args.workdir}: ${info ? 'not a directory' : 'no such directory'}`,
      'policy',
    );
  return workdir;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new UsageError('give the command after -- or pipe it on stdin', 'policy');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.byteLength;
    if (size > MAX_STDIN_BYTES)
      throw new UsageError('the command on stdin is over 1 MiB', 'policy');
    chunks.push(bytes);
  }
  const command = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (command.trim() === '') throw new UsageError('the command on stdin is empty', 'policy');
  return command;
}

function ruleJson(sourced: SourcedRule) {
  return { ...sourced.rule, ...sourced.source };
}

function printJudgement(judgement: PolicyJudgement, args: PolicyCheckArgs, out: Output): void {
  const strictest = judgement.rules[0] ?? null;
  if (args.json) {
    out.stdout(
      `${JSON.stringify(
        {
          verdict: judgement.verdict,
          reasons: judgement.reasons,
          commands: judgement.commands,
          rule: strictest === null ? null : ruleJson(strictest),
          rules: judgement.rules.map(ruleJson),
        },
        null,
        2,
      )}\n`,
    );
    return;
  }
  const lines = [judgement.verdict, ...judgement.reasons];
  for (const rule of judgement.rules)
    lines.push(`rule: ${describeRule(rule.rule)} (from ${describeSource(rule.source)})`);
  out.stdout(`${lines.map((line) => printable(line)).join('\n')}\n`);
}

function printRules(set: RuleSet, workdir: string, args: PolicyRulesArgs, out: Output): void {
  if (args.json) {
    out.stdout(
      `${JSON.stringify(
        {
          workdir,
          rules: set.rules.map(ruleJson),
          ignored: [
            ...set.ignored.map((ignored) => ({ ...ruleJson(ignored), why: ignored.why })),
            ...(set.untrustedFile === null
              ? []
              : [{ file: set.untrustedFile, why: 'untrusted_folder' }]),
          ],
        },
        null,
        2,
      )}\n`,
    );
    return;
  }
  const lines: string[] = [];
  if (set.rules.length === 0) lines.push(`No kept rules in force for ${workdir}.`);
  for (const rule of set.rules)
    lines.push(`${describeRule(rule.rule)}  (from ${describeSource(rule.source)})`);
  for (const ignored of set.ignored)
    lines.push(
      `ignored: ${describeRule(ignored.rule)}  (from ${describeSource(ignored.source)}): a project's rules file may only add ask and deny rules`,
    );
  if (set.untrustedFile !== null)
    lines.push(
      `ignored: ${set.untrustedFile}: ${workdir} is not a trusted folder ('tiny-claw trust ${workdir}' makes its ask and deny rules count)`,
    );
  out.stdout(`${lines.map((line) => printable(line)).join('\n')}\n`);
}
