import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { SimpleCommand } from '../risk/shell/simple-command.js';
import { matchesPathGlob } from './path-glob.js';
import type { RuleDecision, SourcedRule } from './rule-schema.js';

const STRICTNESS: Readonly<Record<RuleDecision, number>> = { allow: 0, ask: 1, deny: 2 };

/**
 * The strictest of the rules given (the first one of that strictness), or null when none.
 *
 * @example
 * strictestRule([allowNpmTest, denyGitPush])?.rule.decision; // 'deny'
 */
export function strictestRule(rules: readonly SourcedRule[]): SourcedRule | null {
  let best: SourcedRule | null = null;
  for (const rule of rules)
    if (best === null || STRICTNESS[rule.rule.decision] > STRICTNESS[best.rule.decision])
      best = rule;
  return best;
}

function inScope(rule: SourcedRule, workdir: string): boolean {
  return rule.rule.workdir === undefined || resolve(rule.rule.workdir) === workdir;
}

/**
 * The argv of a simple command as far as it is known before it runs: the unwrapped program and
 * its arguments, with `null` for every word computed at run time (an expansion, a glob).
 *
 * @example
 * staticArgv(command); // ['npm', 'test'] for `env CI=1 npm test`
 */
export function staticArgv(command: SimpleCommand): (string | null)[] {
  if (command.name === null) return [];
  return [command.program, ...command.args.map((word) => (word.expands ? null : word.value))];
}

/**
 * The bash rules that match one simple command: its argv starts with the rule's prefix, word for
 * word. A command whose words in those positions are computed at run time, that sets environment
 * variables, or that is no command at all (a bare assignment or redirection) matches no rule.
 *
 * @example
 * commandRules(npmTest, rules, '/w'); // [{ rule: { tool: 'bash', prefix: ['npm', 'test'], … }, … }]
 */
export function commandRules(
  command: SimpleCommand,
  rules: readonly SourcedRule[],
  workdir: string,
): SourcedRule[] {
  if (command.kind !== 'command' || command.assignments.length > 0) return [];
  const argv = staticArgv(command);
  return rules.filter((sourced) => {
    const { rule } = sourced;
    if (rule.tool !== 'bash' || !inScope(sourced, workdir)) return false;
    if (rule.prefix.length > argv.length) return false;
    return rule.prefix.every((word, index) => argv[index] === word);
  });
}

/**
 * The write or edit rules that match a file call's path, taken relative to the workdir. A path
 * outside the workdir matches no rule.
 *
 * @example
 * fileRules('write', 'docs/a.md', rules, '/w');
 */
export function fileRules(
  tool: string,
  path: string,
  rules: readonly SourcedRule[],
  workdir: string,
): SourcedRule[] {
  const inside = relative(workdir, resolve(workdir, path));
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside))
    return [];
  const shown = inside.split(sep).join('/');
  return rules.filter((sourced) => {
    const { rule } = sourced;
    if (rule.tool !== tool || (rule.tool !== 'write' && rule.tool !== 'edit')) return false;
    return inScope(sourced, workdir) && matchesPathGlob(shown, rule.path);
  });
}

/**
 * The MCP tool rules that match a call of `tool`: by its name, or by `mcp__<server>__*` for every
 * tool of its server.
 *
 * @example
 * toolRules('mcp__docs__search', rules, '/w'); // rules for mcp__docs__search and mcp__docs__*
 */
export function toolRules(
  tool: string,
  rules: readonly SourcedRule[],
  workdir: string,
): SourcedRule[] {
  return rules.filter((sourced) => {
    const name = sourced.rule.tool;
    if (!name.startsWith('mcp__') || !inScope(sourced, workdir)) return false;
    return name.endsWith('__*') ? tool.startsWith(name.slice(0, -1)) : name === tool;
  });
}
