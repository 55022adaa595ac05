import { maskSecret, redactUrlCredentials } from './mask-secret.js';
import { SETTING_VARIABLES } from './setting-variables.js';
import type { SettingSource, Settings } from './settings-schema.js';

/**
 * One line of the effective configuration.
 *
 * @example
 * const row: SettingRow = { name: 'TINY_CLAW_MAX_TOKENS', value: '4096', source: 'default' };
 */
export interface SettingRow {
  /** The variable that supplied the value (an alias when one did), else the canonical name. */
  readonly name: string;
  /** The effective value; secrets masked, `(unset)` when there is none. */
  readonly value: string;
  readonly source: SettingSource;
}

/**
 * The effective configuration, one row per variable, for `tiny-claw health`. Secrets are masked
 * and URL credentials hidden, so the rows are safe to print or log.
 *
 * @example
 * for (const row of describeSettings(settings)) console.log(`${row.name}=${row.value} (${row.source})`);
 */
export function describeSettings(settings: Settings): SettingRow[] {
  return Object.values(SETTING_VARIABLES).map((variable) => {
    const names = [variable.name, ...variable.aliases];
    const name = names.find((n) => sourceOf(settings, n) !== 'default') ?? variable.name;
    const shown = variable.show(settings);
    let value: string;
    if (shown === undefined) value = '(unset)';
    else if (variable.secret) value = maskSecret(shown);
    else value = redactUrlCredentials(shown);
    return { name, value, source: sourceOf(settings, name) };
  });
}

function sourceOf(settings: Settings, name: string): SettingSource {
  return Object.hasOwn(settings.sources, name) ? (settings.sources[name] ?? 'default') : 'default';
}
