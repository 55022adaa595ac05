import { access, constants } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  loadSettingsFromFiles,
  type Settings,
  SettingsFileError,
  type SettingWarning,
} from '@tiny-claw/runtime';
import { settingsInvocation } from './env-file-flag.js';
import { UsageError } from './usage-error.js';

/**
 * The validated settings exactly as `loadApplication` reads them, without assembling providers
 * and tools: for commands that only read tiny-claw's state, such as `trace`, and so need no model
 * key. Sources, strongest first: the real environment, `--env-file PATH`, the user's
 * `~/.config/tiny-claw/.env` (or under `$XDG_CONFIG_HOME`), and `./.env` only when the current
 * folder is trusted (`tiny-claw trust`). Every warning (an ignored `./.env`, an unknown variable)
 * is printed once on stderr.
 *
 * @throws UsageError when `--env-file` names a file that does not exist, cannot be read, is not a
 * regular file (a named pipe is refused without blocking) or is over 1 MiB.
 * @example
 * const { stateDir, workdir } = await loadSettingsOnly();
 */
export async function loadSettingsOnly(
  options: {
    /** False while changing the trust list: only the user's own sources count. */
    projectDotenv?: boolean;
  } = {},
): Promise<Settings> {
  const { envFile, notice } = settingsInvocation();
  const cwd = process.cwd();
  if (envFile !== undefined) await assertReadable(envFile, cwd);
  let settings: Settings;
  try {
    settings = await loadSettingsFromFiles({
      env: process.env,
      cwd,
      homeDir: homedir(),
      envFile,
      ...(options.projectDotenv === undefined ? {} : { projectDotenv: options.projectDotenv }),
    });
  } catch (error) {
    // The file named on the command line is a usage problem, as a missing one is.
    if (
      envFile !== undefined &&
      error instanceof SettingsFileError &&
      error.path === resolve(cwd, envFile)
    ) {
      throw new UsageError(`--env-file ${envFile}: ${error.reason}`);
    }
    throw error;
  }
  for (const warning of settings.warnings) notice(`tiny-claw: ${describeWarning(warning, cwd)}\n`);
  return settings;
}

/**
 * One warning about the settings as a line of text (without the `tiny-claw: ` prefix).
 *
 * @example
 * describeWarning({ kind: 'untrusted-dotenv', path: '/repo/.env' }, '/repo');
 * // → "ignoring ./.env (this folder is not trusted; run 'tiny-claw trust' to use it, or pass --env-file ./.env)"
 */
export function describeWarning(warning: SettingWarning, cwd: string): string {
  if (warning.kind === 'untrusted-dotenv') {
    const shown = warning.path === join(cwd, '.env') ? './.env' : warning.path;
    return (
      `ignoring ${shown} (this folder is not trusted; run 'tiny-claw trust' to use it, ` +
      `or pass --env-file ${shown})`
    );
  }
  if (warning.kind === 'trusted-dotenv-changed') {
    const shown = warning.path === join(cwd, '.env') ? './.env' : warning.path;
    const trusted = `this folder was trusted on ${warning.trustedAt.slice(0, 10)}`;
    if (warning.change === 'unrecorded') {
      return (
        `using ${shown}, whose contents were not recorded when ${trusted} (by an older ` +
        'tiny-claw); recorded them now, so a later change will be reported. Check that it is ' +
        "what you expect, or run 'tiny-claw untrust' to stop using it"
      );
    }
    return (
      `${shown} changed since ${trusted}; tiny-claw still uses it. Check what changed, then run ` +
      "'tiny-claw trust' to accept it (and silence this notice), or 'tiny-claw untrust' to stop using it"
    );
  }
  const where = warning.file === undefined ? '' : ` in ${warning.file}`;
  return `unknown setting ${warning.name}${where} ignored (did you mean ${warning.suggestion}?)`;
}

async function assertReadable(envFile: string, cwd: string): Promise<void> {
  try {
    await access(resolve(cwd, envFile), constants.R_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === 'ENOENT' || code === 'ENOTDIR'
        ? 'no such file'
        : `cannot be read (${code ?? String(error)})`;
    throw new UsageError(`--env-file ${envFile}: ${problem}`);
  }
}
