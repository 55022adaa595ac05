import { readFile, stat } from 'node:fs/promises';
import { ConfigurationError } from '@tiny-claw/core';
import { isErrnoError } from '@tiny-claw/core/utils';
import type { z } from 'zod';
import {
  type IgnoredRule,
  parsePermissionRule,
  type RuleSet,
  rulesFileSchema,
  type SourcedRule,
} from './rule-schema.js';

// A rules file is a short list kept by hand; anything larger is not one.
const MAX_RULES_FILE_BYTES = 1024 * 1024;

const FORMAT_HINT =
  'Expected { "rules": [ { "tool": "bash", "prefix": ["npm", "test"], "decision": "allow" }, ' +
  '{ "tool": "write", "path": "docs/**", "decision": "ask" } ] } with decision allow, ask or deny ' +
  'and an optional absolute "workdir" and "reason"; an MCP tool rule is { "tool": "mcp__<server>__<tool>" (or "mcp__<server>__*"), "decision": "allow" }.';

function problemsOf(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.map(String).join('.');
      return where === '' ? issue.message : `${where}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * Read one rules file. A missing file holds no rules.
 *
 * @throws ConfigurationError naming the file, the rule index and what is wrong when the file is
 * not JSON, not `{ "rules": [...] }`, or holds an invalid rule.
 * @example
 * const rules = await readRulesFile('/home/me/.config/tiny-claw/rules.json', 'user');
 */
export async function readRulesFile(
  file: string,
  origin: 'user' | 'project',
): Promise<SourcedRule[]> {
  let text: string;
  try {
    const bytes = await readFile(file);
    if (bytes.byteLength > MAX_RULES_FILE_BYTES)
      throw new ConfigurationError(`Rules file ${file} is over 1 MiB; it cannot be a rules file.`);
    text = bytes.toString('utf8');
  } catch (error) {
    if (isErrnoError(error, 'ENOENT')) return [];
    if (error instanceof ConfigurationError) throw error;
    const detail = (error as { code?: string }).code ?? String(error);
    throw new ConfigurationError(`Rules file ${file} cannot be read (${detail}).`, {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError(
      `Rules file ${file} is not valid JSON (${(error as Error).message}). ${FORMAT_HINT}`,
    );
  }
  const file_ = rulesFileSchema.safeParse(json);
  if (!file_.success)
    throw new ConfigurationError(
      `Rules file ${file} has the wrong shape (${problemsOf(file_.error)}). ${FORMAT_HINT}`,
    );
  return file_.data.rules.map((raw, index) => {
    const rule = parsePermissionRule(raw);
    if (!rule.success)
      throw new ConfigurationError(
        `Rules file ${file}: rule #${index} is invalid (${problemsOf(rule.error)}). ${FORMAT_HINT}`,
      );
    return { rule: rule.data, source: { origin, file, index } };
  });
}

/**
 * Where the rules of one workdir come from: the user's rules file, and the project's when the
 * caller has found the workdir trusted.
 *
 * @example
 * const where: RuleFiles = { user: '/h/.config/tiny-claw/rules.json', project: '/w/.claw/rules.json', projectTrusted: false };
 */
export interface RuleFiles {
  readonly user: string;
  readonly project?: string;
  /** Whether the project's file counts (its folder is trusted). */
  readonly projectTrusted?: boolean;
}

/**
 * Read the rules in force. The user's file counts whole. A project's file counts only when its
 * folder is trusted, and even then only its `ask` and `deny` rules: a project cannot let the
 * agent do more than the user allows, so its `allow` rules are ignored (listed in `ignored`). In
 * an untrusted folder the project's file is not parsed at all; when it exists, its path is given
 * as `untrustedFile`.
 *
 * @throws ConfigurationError for a bad user file, or a bad project file in a trusted folder.
 * @example
 * const set = await loadRuleSet({ user: '/h/.config/tiny-claw/rules.json', project: '/w/.claw/rules.json', projectTrusted: true });
 */
export async function loadRuleSet(files: RuleFiles): Promise<RuleSet> {
  const rules: SourcedRule[] = await readRulesFile(files.user, 'user');
  const ignored: IgnoredRule[] = [];
  let untrustedFile: string | null = null;
  if (files.project !== undefined) {
    if (files.projectTrusted === true) {
      for (const sourced of await readRulesFile(files.project, 'project')) {
        if (sourced.rule.decision === 'allow')
          ignored.push({ ...sourced, why: 'allow_in_project' });
        else rules.push(sourced);
      }
    } else if (await exists(files.project)) {
      untrustedFile = files.project;
    }
  }
  return { rules, ignored, untrustedFile };
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
