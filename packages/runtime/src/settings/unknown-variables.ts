import { editDistance } from '@tiny-claw/core/utils';
import type { SettingsFile } from './setting-lookup.js';
import { SETTING_VARIABLE_NAMES } from './setting-variables.js';
import type { SettingWarning } from './settings-schema.js';

/** Prefixes that mark a variable as meant for tiny-claw: one set with them is checked by name. */
const CHECKED_PREFIXES = ['TINY_CLAW_', 'FEISHU_'] as const;

/**
 * Variables with a checked prefix that are known although the settings table does not read them:
 * `TINY_CLAW_PROCESS_TAG` marks the processes a bash tool call starts, so a tiny-claw started from
 * such a command inherits it.
 */
const OTHER_KNOWN_VARIABLES = ['TINY_CLAW_PROCESS_TAG'] as const;

/**
 * Every variable name that is not a typo: the settings table (aliases included) and the few other
 * variables tiny-claw reads.
 *
 * @example
 * KNOWN_VARIABLE_NAMES.includes('TINY_CLAW_ENABLED_TOOLS'); // → true
 */
export const KNOWN_VARIABLE_NAMES: readonly string[] = Object.freeze([
  ...SETTING_VARIABLE_NAMES,
  ...OTHER_KNOWN_VARIABLES,
]);

/** Names that can be suggested: only the ones a user is meant to set. */
const SUGGESTIONS = SETTING_VARIABLE_NAMES.filter((name) =>
  CHECKED_PREFIXES.some((prefix) => name.startsWith(prefix)),
);

type UnknownVariableWarning = Extract<SettingWarning, { kind: 'unknown-variable' }>;

/**
 * One warning for every set `TINY_CLAW_*` or `FEISHU_*` variable that tiny-claw does not know,
 * from the environment or any settings file, naming the closest known setting. A name set in
 * several places is reported once, for the strongest place. Values are never looked at beyond
 * "set or not", so nothing secret can reach a warning.
 *
 * @example
 * findUnknownVariables({ TINY_CLAW_ENABLE_TOOLS: 'bash' }, []);
 * // → [{ kind: 'unknown-variable', name: 'TINY_CLAW_ENABLE_TOOLS', source: 'env', suggestion: 'TINY_CLAW_ENABLED_TOOLS' }]
 */
export function findUnknownVariables(
  env: Readonly<Record<string, string | undefined>>,
  files: readonly SettingsFile[],
): UnknownVariableWarning[] {
  const warnings: UnknownVariableWarning[] = [];
  const seen = new Set<string>();
  const check = (names: string[], from: Pick<UnknownVariableWarning, 'source' | 'file'>) => {
    for (const name of names.sort()) {
      if (seen.has(name) || !isChecked(name) || KNOWN_VARIABLE_NAMES.includes(name)) continue;
      seen.add(name);
      warnings.push({
        kind: 'unknown-variable',
        name,
        ...from,
        suggestion: closestKnownName(name),
      });
    }
  };
  check(
    Object.keys(env).filter((name) => env[name] !== undefined),
    { source: 'env' },
  );
  for (const file of files) {
    check(
      Object.keys(file.values).filter((name) => file.values[name] !== undefined),
      { source: file.source, file: file.path },
    );
  }
  return warnings;
}

/**
 * The known setting whose name is fewest single-character edits away from `name` (the first in
 * table order on a tie).
 *
 * @example
 * closestKnownName('TINY_CLAW_ENABLE_TOOLS'); // → 'TINY_CLAW_ENABLED_TOOLS'
 */
export function closestKnownName(name: string): string {
  let best = SUGGESTIONS[0] as string;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of SUGGESTIONS) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function isChecked(name: string): boolean {
  return CHECKED_PREFIXES.some((prefix) => name.startsWith(prefix));
}
