import { isAbsolute } from 'node:path';
import { z } from 'zod';

/**
 * What a kept rule decides for the calls it matches: `allow` lets a call run without asking
 * (unless the built-in policy refuses it), `ask` needs a person, `deny` refuses.
 *
 * @example
 * const decision: RuleDecision = 'ask';
 */
export type RuleDecision = 'allow' | 'ask' | 'deny';

const common = {
  decision: z.enum(['allow', 'ask', 'deny'], {
    error: 'decision must be "allow", "ask" or "deny"',
  }),
  reason: z.string().min(1).optional(),
  workdir: z
    .string()
    .refine((value) => isAbsolute(value), { error: 'workdir must be an absolute path' })
    .optional(),
};

const bashRuleSchema = z.strictObject({
  tool: z.literal('bash'),
  prefix: z
    .array(z.string().min(1, { error: 'prefix words must not be empty' }))
    .min(1, { error: 'prefix must hold at least one word (the program)' }),
  ...common,
});

const fileRuleSchema = z.strictObject({
  tool: z.enum(['write', 'edit']),
  path: z.string().min(1, { error: 'path must not be empty' }),
  ...common,
});

// `mcp__<server>__<tool>`, or `mcp__<server>__*` for every tool of one server.
const MCP_RULE_NAME = /^mcp__[A-Za-z0-9_-]+?__(?:[A-Za-z0-9_-]+|\*)$/;

const toolRuleSchema = z.strictObject({
  tool: z.templateLiteral(['mcp__', z.string()]).refine((name) => MCP_RULE_NAME.test(name), {
    error: 'an MCP tool is named "mcp__<server>__<tool>" or "mcp__<server>__*"',
  }),
  ...common,
});

const TOOL_KINDS =
  'tool must be "bash" (with a prefix), "write" / "edit" (with a path), or an MCP tool "mcp__<server>__<tool>" / "mcp__<server>__*"';

/**
 * Check one rule of a rules file: its `tool` says which kind it is, and the errors are those of
 * that kind alone.
 *
 * @example
 * parsePermissionRule({ tool: 'mcp__docs__*', decision: 'allow' }).success; // true
 */
export function parsePermissionRule(
  raw: unknown,
): { success: true; data: PermissionRule } | { success: false; error: z.ZodError } {
  const tool = (raw as { tool?: unknown } | null)?.tool;
  const schema =
    tool === 'bash'
      ? bashRuleSchema
      : tool === 'write' || tool === 'edit'
        ? fileRuleSchema
        : typeof tool === 'string' && tool.startsWith('mcp__')
          ? toolRuleSchema
          : null;
  if (schema === null)
    return {
      success: false,
      error: new z.ZodError([{ code: 'custom', path: ['tool'], message: TOOL_KINDS, input: tool }]),
    };
  const parsed = schema.safeParse(raw);
  return parsed.success
    ? { success: true, data: parsed.data as PermissionRule }
    : { success: false, error: parsed.error };
}

/** A whole rules file: `{ "rules": [ … ] }`. */
export const rulesFileSchema = z.strictObject({ rules: z.array(z.unknown()) });

/**
 * A bash rule: matches each simple command of a bash call whose argv starts with `prefix`.
 *
 * @example
 * const rule: BashRule = { tool: 'bash', prefix: ['npm', 'test'], decision: 'allow' };
 */
export type BashRule = z.infer<typeof bashRuleSchema>;

/**
 * A write or edit rule: matches a call whose path, relative to the workdir, matches the glob
 * `path` (`*` and `?` within one path segment, `**` across segments).
 *
 * @example
 * const rule: FileRule = { tool: 'write', path: 'docs/**', decision: 'allow' };
 */
export type FileRule = z.infer<typeof fileRuleSchema>;

/**
 * An MCP tool rule: matches calls of that tool, or of every tool of one server (`mcp__docs__*`).
 * An `allow` lifts the approval MCP tools need only for a tool its server marks read-only.
 *
 * @example
 * const rule: ToolRule = { tool: 'mcp__docs__search', decision: 'allow' };
 */
export type ToolRule = z.infer<typeof toolRuleSchema>;

/**
 * A permission rule the user keeps, optionally scoped to one project by `workdir`.
 *
 * @example
 * const rule: PermissionRule = { tool: 'bash', prefix: ['git', 'push'], decision: 'deny', reason: 'push by hand' };
 */
export type PermissionRule = BashRule | FileRule | ToolRule;

/**
 * Where a rule comes from: the user's own rules file or a project's, and its index in the file,
 * or an "always for this session" answer (`file` then names the session, `index` counts the
 * session's answers).
 *
 * @example
 * const source: RuleSource = { origin: 'user', file: '/home/me/.config/tiny-claw/rules.json', index: 0 };
 */
export interface RuleSource {
  readonly origin: 'user' | 'project' | 'session';
  readonly file: string;
  readonly index: number;
}

/**
 * A rule together with where it comes from.
 *
 * @example
 * const sourced: SourcedRule = { rule, source: { origin: 'user', file, index: 0 } };
 */
export interface SourcedRule {
  readonly rule: PermissionRule;
  readonly source: RuleSource;
}

/**
 * Why a rule that was read is not in force.
 *
 * @example
 * const why: IgnoredRuleReason = 'allow_in_project';
 */
export type IgnoredRuleReason = 'allow_in_project';

/**
 * A rule that was read but is not in force, and why.
 *
 * @example
 * const ignored: IgnoredRule = { rule, source, why: 'allow_in_project' };
 */
export interface IgnoredRule extends SourcedRule {
  readonly why: IgnoredRuleReason;
}

/**
 * The rules in force for one workdir, in order (user file first, then the project's), plus those
 * read but ignored, and the project's rules file when it was not read because its folder is not
 * trusted.
 *
 * @example
 * const set: RuleSet = { rules: [], ignored: [], untrustedFile: null };
 */
export interface RuleSet {
  readonly rules: readonly SourcedRule[];
  readonly ignored: readonly IgnoredRule[];
  readonly untrustedFile: string | null;
}

/** No rules at all. */
export const NO_RULES: RuleSet = Object.freeze({ rules: [], ignored: [], untrustedFile: null });

/**
 * A short human description of a rule: decision, tool and what it matches.
 *
 * @example
 * describeRule({ tool: 'bash', prefix: ['npm', 'test'], decision: 'allow' }); // 'allow bash npm test'
 */
export function describeRule(rule: PermissionRule): string {
  const what =
    rule.tool === 'bash'
      ? ` ${rule.prefix.join(' ')}`
      : rule.tool === 'write' || rule.tool === 'edit'
        ? ` ${rule.path}`
        : '';
  const scope = rule.workdir === undefined ? '' : ` in ${rule.workdir}`;
  return `${rule.decision} ${rule.tool}${what}${scope}`;
}

/**
 * Where a rule comes from, for people: `/path/rules.json #2`.
 *
 * @example
 * describeSource({ origin: 'user', file: '/h/.config/tiny-claw/rules.json', index: 0 }); // '/h/.config/tiny-claw/rules.json #0'
 */
export function describeSource(source: RuleSource): string {
  if (source.origin === 'session') return `answered "always" in session ${source.file}`;
  return `${source.file} #${source.index}`;
}
