import { z } from 'zod';
import type { AssessedCall } from '../risk/assess-call.js';
import { bashParts } from '../risk/bash-parts.js';
import { judgeFileCall } from '../risk/judge-file-call.js';
import { type RiskPolicyOptions, readRiskPolicyOptions } from '../risk/risk-policy-options.js';
import { approval, deny, type RiskFinding, type Verdict, verdictOf } from '../risk/risk-verdict.js';
import type { SimpleCommand } from '../risk/shell/simple-command.js';
import { commandRules, fileRules, strictestRule, toolRules } from './match-rules.js';
import { describeRule, type RuleSet, type SourcedRule } from './rule-schema.js';

/**
 * The full answer for one call under the built-in policy and the kept rules: the verdict and its
 * reasons (as `assessCall` gives them), the simple commands of a bash call (argv; a word computed
 * at run time is shown as written), and the rules that applied (the strictest first).
 *
 * @example
 * const judgement: PolicyJudgement = { verdict: 'allow', reasons: [], commands: [['npm', 'test']], rules: [allowNpmTest] };
 */
export interface PolicyJudgement {
  readonly verdict: Verdict;
  readonly reasons: string[];
  readonly commands: string[][];
  readonly rules: SourcedRule[];
}

const fileArguments = z.looseObject({ path: z.string().min(1) });

function ruleFinding(rule: SourcedRule): RiskFinding | null {
  const said = rule.rule.reason === undefined ? '' : `: ${rule.rule.reason}`;
  if (rule.rule.decision === 'ask')
    return approval(`a kept rule asks (${describeRule(rule.rule)})${said}`);
  if (rule.rule.decision === 'deny')
    return deny(`a kept rule denies (${describeRule(rule.rule)})${said}`);
  return null;
}

/**
 * One part's findings once a rule applies: `allow` keeps only the built-in refusals (no rule can
 * allow what the policy denies), `ask` and `deny` add their own finding.
 */
function ruled(findings: readonly RiskFinding[], rule: SourcedRule | null): RiskFinding[] {
  if (rule === null) return [...findings];
  if (rule.rule.decision === 'allow') return findings.filter((finding) => finding.level === 'deny');
  const added = ruleFinding(rule);
  return added === null ? [...findings] : [...findings, added];
}

function argvOf(command: SimpleCommand): string[] {
  if (command.name === null) return [];
  return [
    command.program ?? command.name.text,
    ...command.args.map((word) => word.value ?? word.text),
  ];
}

/**
 * Judge a tool call under the built-in risk policy and the kept rules. A bash call is judged per
 * simple command (after wrappers such as `env` and `timeout` are unwrapped): a command a rule
 * matches gets the rule's decision, every other part keeps its built-in verdict, and the strictest
 * part wins, so `npm test && rm -rf build` still asks under a rule allowing `npm test`. A write or
 * edit call is matched by its path relative to the workdir. The strictest verdict always wins and
 * no rule can allow what the built-in policy denies; an `allow` rule only lifts the need for
 * approval. Nothing is executed.
 *
 * @throws ConfigurationError when `options` are invalid.
 * @example
 * const judgement = await judgeCallWithRules({ name: 'bash', arguments: { command: 'npm test' } }, { workdir: '/w' }, rules);
 */
export async function judgeCallWithRules(
  call: AssessedCall,
  options: RiskPolicyOptions,
  rules: RuleSet,
): Promise<PolicyJudgement> {
  const policy = readRiskPolicyOptions(options);
  const judged = policy.requiredTools.includes(call.name);
  const applied: SourcedRule[] = [];
  const apply = (matches: SourcedRule[]): SourcedRule | null => {
    const rule = strictestRule(matches);
    if (rule !== null && !applied.includes(rule)) applied.push(rule);
    return rule;
  };
  let findings: RiskFinding[];
  let commands: string[][] = [];
  if (call.name === 'bash') {
    const parts = await bashParts(call.arguments, policy, judged);
    findings = [
      ...parts.before,
      ...parts.commands.flatMap((part) =>
        ruled(part.findings, apply(commandRules(part.command, rules.rules, policy.workdir))),
      ),
      ...parts.after,
    ];
    commands = parts.commands.map((part) => argvOf(part.command)).filter((argv) => argv.length > 0);
  } else if (call.name === 'write' || call.name === 'edit') {
    const builtIn = judged ? judgeFileCall(call.name, call.arguments, policy) : [];
    const path = fileArguments.safeParse(call.arguments);
    const matches = path.success
      ? fileRules(call.name, path.data.path, rules.rules, policy.workdir)
      : [];
    findings = ruled(builtIn, apply(matches));
  } else {
    const builtIn = judged ? [approval(`${call.name} is configured to need approval`)] : [];
    const rule = apply(toolRules(call.name, rules.rules, policy.workdir));
    // An allow rule lifts the approval only for a tool its provider says only reads.
    findings =
      rule?.rule.decision === 'allow' && !policy.readOnlyTools.includes(call.name)
        ? [
            ...builtIn,
            ...(builtIn.length > 0
              ? [
                  approval(
                    `a kept rule allows it (${describeRule(rule.rule)}), but only a tool its server marks read-only can run without approval`,
                  ),
                ]
              : []),
          ]
        : ruled(builtIn, rule);
  }
  const { verdict, reasons } = verdictOf(findings);
  const strictest = strictestRule(applied);
  const ordered =
    strictest === null ? applied : [strictest, ...applied.filter((rule) => rule !== strictest)];
  return { verdict, reasons, commands, rules: ordered };
}
