import { dirname, isAbsolute, join } from 'node:path';

/**
 * Where the user's own settings file is: `$XDG_CONFIG_HOME/tiny-claw/.env`, or
 * `~/.config/tiny-claw/.env` when `XDG_CONFIG_HOME` is unset or not absolute (as the XDG base
 * directory rules say). Read from the real environment only.
 *
 * @example
 * userConfigFile({}, '/home/me'); // → '/home/me/.config/tiny-claw/.env'
 */
export function userConfigFile(
  env: Readonly<Record<string, string | undefined>>,
  homeDir: string,
): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(homeDir, '.config');
  return join(base, 'tiny-claw', '.env');
}

/**
 * The folder of the user's own tiny-claw files: the settings file ({@link userConfigFile}) and
 * whatever else tiny-claw keeps there (kept permission rules, MCP servers).
 *
 * @example
 * userConfigDir({ XDG_CONFIG_HOME: '/cfg' }, '/home/me'); // → '/cfg/tiny-claw'
 */
export function userConfigDir(
  env: Readonly<Record<string, string | undefined>>,
  homeDir: string,
): string {
  return dirname(userConfigFile(env, homeDir));
}
