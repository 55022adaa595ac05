import { relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import type { AssessedCall } from '../risk/assess-call.js';
import { bashParts } from '../risk/bash-parts.js';
import { type RiskPolicyOptions, readRiskPolicyOptions } from '../risk/risk-policy-options.js';
import { judgeCallWithRules } from './judge-with-rules.js';
import { staticArgv } from './match-rules.js';
import type { PermissionRule, RuleSet, SourcedRule } from './rule-schema.js';

/**
 * Why a call that needs approval cannot be answered "always": no kept rule could match the part
 * that asks (`unmatchable`: a word computed at run time, an environment assignment, a parse
 * problem, a redirection, a tool rules do not cover) or the call is not one that asks at all
 * (`not_asking`: the policy allows or denies it).
 *
 * @example
 * const why: UnrememberableReason = 'unmatchable';
 */
export type UnrememberableReason = 'unmatchable' | 'not_asking';

/**
 * The `allow` rules that would let this very call run without asking next time, or why there are
 * none.
 *
 * @example
 * const proposal: RuleProposal = { rules: [{ tool: 'bash', prefix: ['npm', 'test'], decision: 'allow' }] };
 */
export type RuleProposal =
  | { readonly rules: PermissionRule[] }
  | { readonly rules: null; readonly why: UnrememberableReason };

const fileArguments = z.looseObject({ path: z.string().min(1) });
// A path rule is a glob: a path that holds glob characters cannot be matched by itself alone.
const GLOB_CHARACTERS = /[*?]/;

/**
 * Propose the rules to keep when a person answers "always" to a call that needs approval. A bash
 * call gets one rule per simple command that asks, matching that command's whole argv (so an
 * answer about `npm test` never covers `npm publish`); a write or edit call gets a rule for its
 * exact path. The proposal is checked by judging the call again with the rules added: unless the
 * call would then be allowed, no rule is proposed, since a remembered answer that does not stop
 * the next identical question would only mislead. A call the built-in policy denies is never
 * proposed for. `workdir` scopes the rules to one project when given.
 *
 * @throws ConfigurationError when `options` are invalid.
 * @example
 * const proposal = await proposeRules({ name: 'bash', arguments: { command: 'npm test' } }, { workdir: '/w' }, NO_RULES);
 * proposal.rules; // [{ tool: 'bash', prefix: ['npm', 'test'], decision: 'allow' }]
 */
export async function proposeRules(
  call: AssessedCall,
  options: RiskPolicyOptions,
  rules: RuleSet,
  scope: { workdir?: string } = {},
): Promise<RuleProposal> {
  const before = await judgeCallWithRules(call, options, rules);
  if (before.verdict !== 'approval_required') return { rules: null, why: 'not_asking' };
  const policy = readRiskPolicyOptions(options);
  const scoped = scope.workdir === undefined ? {} : { workdir: scope.workdir };
  const proposed: PermissionRule[] = [];
  if (call.name === 'bash') {
    const parts = await bashParts(call.arguments, policy, true);
    for (const part of parts.commands) {
      if (!part.findings.some((finding) => finding.level === 'approval_required')) continue;
      const argv = staticArgv(part.command);
      if (
        part.command.kind !== 'command' ||
        part.command.assignments.length > 0 ||
        argv.length === 0 ||
        argv.some((word) => word === null || word === '')
      )
        return { rules: null, why: 'unmatchable' };
      const prefix = argv as string[];
      const known = proposed.some(
        (rule) => rule.tool === 'bash' && rule.prefix.join('\0') === prefix.join('\0'),
      );
      if (!known) proposed.push({ tool: 'bash', prefix, decision: 'allow', ...scoped });
    }
  } else if (call.name === 'write' || call.name === 'edit') {
    const path = fileArguments.safeParse(call.arguments);
    if (!path.success) return { rules: null, why: 'unmatchable' };
    const inside = relative(policy.workdir, resolve(policy.workdir, path.data.path));
    const shown = inside.split(sep).join('/');
    if (inside === '' || shown === '..' || shown.startsWith('../') || GLOB_CHARACTERS.test(shown))
      return { rules: null, why: 'unmatchable' };
    proposed.push({ tool: call.name, path: shown, decision: 'allow', ...scoped });
  } else if (/^mcp__[A-Za-z0-9_-]+?__[A-Za-z0-9_-]+$/.test(call.name)) {
    // Held by the check below: only a tool its server marks read-only can be allowed.
    proposed.push({ tool: call.name as `mcp__${string}`, decision: 'allow', ...scoped });
  }
  if (proposed.length === 0) return { rules: null, why: 'unmatchable' };
  const added: SourcedRule[] = proposed.map((rule, index) => ({
    rule,
    source: { origin: 'user', file: '(proposed)', index },
  }));
  const after = await judgeCallWithRules(call, options, {
    ...rules,
    rules: [...rules.rules, ...added],
  });
  return after.verdict === 'allow' ? { rules: proposed } : { rules: null, why: 'unmatchable' };
}
