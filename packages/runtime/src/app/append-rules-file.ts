import { readFile, realpath } from 'node:fs/promises';
import { type PermissionRule, readRulesFile } from '@tiny-claw/approval';
import { ConfigurationError } from '@tiny-claw/core';
import { isErrnoError } from '@tiny-claw/core/utils';
import { withPathLock, writeFileAtomic } from '@tiny-claw/workspace/files';

/**
 * Add rules to the end of a rules file, keeping everything already in it: a missing file (and its
 * directory) is created, the new rules are written with the file's own layout of two-space JSON,
 * and the file is replaced atomically, so an interrupted write leaves the old file whole. A rules
 * file behind a symbolic link is written where the link points. Rules the file already holds are
 * not added twice.
 *
 * @throws ConfigurationError (and writes nothing) when the file exists but is not a valid rules
 * file: the person fixes it first rather than lose it.
 * @example
 * await appendRulesFile('/home/me/.config/tiny-claw/rules.json', [{ tool: 'bash', prefix: ['npm', 'test'], decision: 'allow', workdir: '/w' }]);
 */
export async function appendRulesFile(
  file: string,
  rules: readonly PermissionRule[],
): Promise<{ file: string; added: PermissionRule[] }> {
  const target = await realpath(file).catch(() => file);
  return withPathLock(target, async () => {
    // Validates the whole file (every rule) before anything is written.
    const kept = await readRulesFile(target, 'user');
    let text: string | undefined;
    try {
      text = await readFile(target, 'utf8');
    } catch (error) {
      if (!isErrnoError(error, 'ENOENT')) throw error;
    }
    const document: { rules: unknown[] } & Record<string, unknown> =
      text === undefined ? { rules: [] } : JSON.parse(text);
    const seen = new Set(kept.map((sourced) => JSON.stringify(canonical(sourced.rule))));
    const added: PermissionRule[] = [];
    for (const rule of rules) {
      const key = JSON.stringify(canonical(rule));
      if (seen.has(key)) continue;
      seen.add(key);
      added.push(rule);
    }
    if (added.length === 0) return { file: target, added };
    document.rules.push(...added);
    try {
      await writeFileAtomic(target, `${JSON.stringify(document, null, 2)}\n`);
    } catch (error) {
      throw new ConfigurationError(
        `Could not add the rule to ${target}: ${(error as Error).message}. Check that the file and its folder can be written.`,
        { cause: error },
      );
    }
    return { file: target, added };
  });
}

function canonical(rule: PermissionRule): unknown {
  return Object.fromEntries(Object.entries(rule).sort(([a], [b]) => a.localeCompare(b)));
}
