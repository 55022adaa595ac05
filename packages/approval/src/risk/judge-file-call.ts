import { relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { PROTECTED_FILE_RULES } from './protected-files.js';
import type { ResolvedRiskPolicy } from './risk-policy-options.js';
import { approval, deny, type RiskFinding } from './risk-verdict.js';
import { snippet } from './shell/snippet.js';
import { placeOf, workspacePaths } from './workspace-paths.js';

/** An edit that removes at least this many lines needs approval. */
export const LARGE_DELETION_LINES = 20;

const fileArguments = z.looseObject({
  path: z.string().min(1),
  old_text: z.string().optional(),
  new_text: z.string().optional(),
});

/**
 * Lines in a text: a final line break does not start another line.
 *
 * @example
 * lineCount('a\nb\n'); // 2
 */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

const REFUSALS = {
  git: 'writes into the .git directory',
  protected: 'writes into a protected path',
  outside: 'writes outside the workdir',
} as const;

/**
 * Judge a `write` or `edit` call: refuse `.git`, protected paths and anything outside the
 * workdir; ask for protected file kinds and for an edit that deletes many lines.
 *
 * @example
 * judgeFileCall('edit', { path: '.env', old_text: 'A=1', new_text: 'A=2' }, policy);
 * // [approval('.env files hold secrets and settings (`.env`)')]
 */
export function judgeFileCall(
  tool: string,
  args: Record<string, unknown>,
  policy: ResolvedRiskPolicy,
): RiskFinding[] {
  const parsed = fileArguments.safeParse(args);
  if (!parsed.success) return [approval(`the ${tool} call has no path to check`)];
  const { path } = parsed.data;
  const label = `\`${snippet(path)}\``;
  const absolute = resolve(policy.workdir, path);
  const place = placeOf(absolute, workspacePaths(policy.workdir, policy.protectedPaths));
  if (place === 'git' || place === 'protected') return [deny(`${REFUSALS[place]} (${label})`)];
  if (place !== 'inside') return [deny(`${REFUSALS.outside} (${label})`)];
  const segments = relative(policy.workdir, absolute).split(sep);
  const findings = PROTECTED_FILE_RULES.filter((rule) => rule.matches(segments)).map((rule) =>
    approval(`${rule.reason} (${label})`),
  );
  if (tool === 'edit') {
    const { old_text: oldText, new_text: newText } = parsed.data;
    if (oldText === undefined || newText === undefined) {
      findings.push(
        approval(
          `the edit does not say what it replaces, so its size cannot be checked (${label})`,
        ),
      );
    } else {
      const deleted = lineCount(oldText) - lineCount(newText);
      if (deleted >= LARGE_DELETION_LINES)
        findings.push(approval(`the edit deletes ${deleted} lines (${label})`));
    }
  }
  return findings;
}
