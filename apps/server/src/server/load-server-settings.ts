import { resolve } from 'node:path';
import { ConfigurationError } from '@tiny-claw/core';
import {
  assertStateDirUsable,
  loadSettings,
  readDotenvFile,
  type Settings,
  type SettingsFile,
  type SettingWarning,
} from '@tiny-claw/runtime';

/** Inputs of {@link loadServerSettings}; only the caller touches the process. */
export interface LoadServerSettingsOptions {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  homeDir: string;
  /** `--env-file PATH`: read instead of `./.env`, and it must exist. */
  envFile?: string | undefined;
}

/**
 * The server's configuration: settings from the real environment, then `--env-file` when given,
 * or else the `.env` of the working directory. Unlike
 * the CLI, which runs inside repositories it does not trust, the server's working directory is the
 * operator's own deployment, so its `.env` is read as theirs. Either file (the `.env` whether it
 * exists or not) joins the settings paths no tool may read or write.
 *
 * @throws ConfigurationError (exit 78) for a missing env file, one that is not a regular file of
 * at most 1 MiB, or an invalid value, naming it.
 * @example
 * const { settings, warnings } = await loadServerSettings({ env: process.env, cwd: process.cwd(), homeDir: os.homedir() });
 */
export async function loadServerSettings(
  options: LoadServerSettingsOptions,
): Promise<{ settings: Settings; warnings: readonly SettingWarning[] }> {
  const { env, cwd, homeDir } = options;
  const files: SettingsFile[] = [];
  const ownFile = resolve(cwd, options.envFile ?? '.env');
  if (options.envFile !== undefined) {
    const values = await readDotenvFile(ownFile);
    if (values === undefined) {
      throw new ConfigurationError(`The settings file ${ownFile} (--env-file) does not exist.`);
    }
    files.push({ source: 'env-file', path: ownFile, values });
  } else {
    const values = await readDotenvFile(ownFile);
    if (values !== undefined) files.push({ source: '.env', path: ownFile, values });
  }
  const settings = loadSettings({ env, cwd, homeDir, files, settingsPaths: [ownFile] });
  await assertStateDirUsable(settings.stateDir);
  return { settings, warnings: settings.warnings };
}
