import { lstat, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConfigurationError } from '@tiny-claw/core';
import { parseDotenv, readDotenvFile } from './dotenv.js';
import { loadSettings } from './load-settings.js';
import { SettingLookup, type SettingsFile } from './setting-lookup.js';
import { SETTING_VARIABLES } from './setting-variables.js';
import { readSettingsFile } from './settings-file-read.js';
import type { Settings, SettingWarning } from './settings-schema.js';
import { assertStateDirUsable } from './state-dir-check.js';
import { isTrustedFolder, noticeTrustedDotenv, settingsFileSha256 } from './trusted-folders.js';
import { userConfigFile } from './user-config.js';
import type { PathContext } from './value-schemas.js';

/**
 * Inputs of {@link loadSettingsFromFiles}.
 *
 * @example
 * const options: LoadSettingsFromFilesOptions = { env: process.env, cwd: process.cwd(), homeDir: os.homedir() };
 */
export interface LoadSettingsFromFilesOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly homeDir: string;
  /** A settings file the user named explicitly (absolute or relative to `cwd`); it must exist. */
  readonly envFile?: string | undefined;
  /**
   * Whether the `.env` of `cwd` may be read when `cwd` is trusted (default true). False when only
   * the user's own sources count, e.g. while changing the trust list itself.
   */
  readonly projectDotenv?: boolean;
}

/**
 * Loads settings the way the CLI does, treating the current directory as untrusted input: a
 * repository's `.env` is that project's configuration, and must not be able to redirect the API
 * key or enable tools. Sources, strongest first:
 *
 * 1. the real environment;
 * 2. `envFile`, when given (a missing file is an error);
 * 3. the user's settings file ({@link userConfigFile}), when it exists;
 * 4. `<cwd>/.env`, only when `cwd` itself is in the trust list. An untrusted `.env` is not even
 *    read; its path comes back as an `untrusted-dotenv` warning. A trusted `.env` that is not the
 *    one recorded when the folder was trusted is still used, and comes back once per content as a
 *    `trusted-dotenv-changed` warning (what was told is recorded with the trust).
 *
 * Every file is read only if it is a regular file of at most 1 MiB (a named pipe never blocks).
 *
 * The trust list is looked up in the state dir chosen by sources 1–3 only: the untrusted file
 * cannot point tiny-claw at a trust list of its own. Finally the state dir is checked (see
 * `assertStateDirUsable`).
 *
 * @throws ConfigurationError (exit code 78) for an unreadable or invalid file, an invalid value or
 * a state dir on a pseudo filesystem — a SettingsFileError, naming the file, for one that is not
 * a regular file or is too large; StateError for a corrupt trust list (quarantined).
 * @example
 * const settings = await loadSettingsFromFiles({ env: process.env, cwd: process.cwd(), homeDir: os.homedir() });
 * for (const warning of settings.warnings) console.error(warning);
 */
export async function loadSettingsFromFiles(
  options: LoadSettingsFromFilesOptions,
): Promise<Settings> {
  const { env, cwd, homeDir } = options;
  const files: SettingsFile[] = [];

  if (options.envFile !== undefined) {
    const path = resolve(cwd, options.envFile);
    const values = await readDotenvFile(path);
    if (values === undefined) {
      throw new ConfigurationError(`The settings file ${path} does not exist.`);
    }
    files.push({ source: 'env-file', path, values });
  }
  const userPath = userConfigFile(env, homeDir);
  const userValues = await readDotenvFile(userPath);
  if (userValues !== undefined)
    files.push({ source: 'user config', path: userPath, values: userValues });

  let untrustedDotenv: string | undefined;
  const warnings: SettingWarning[] = [];
  const dotenvPath = join(cwd, '.env');
  if (options.projectDotenv !== false && (await isLoadableFile(dotenvPath, files))) {
    const stateDir = trustedStateDir(env, files, { cwd, homeDir });
    if (stateDir !== undefined && (await isTrustedFolder(stateDir, cwd))) {
      const bytes = await readSettingsFile(dotenvPath);
      if (bytes !== undefined) {
        const values = parseDotenv(bytes.toString('utf8'), dotenvPath);
        files.push({ source: '.env', path: dotenvPath, values });
        const notice = await noticeTrustedDotenv(stateDir, cwd, settingsFileSha256(bytes));
        if (notice !== undefined) {
          warnings.push({ kind: 'trusted-dotenv-changed', path: dotenvPath, ...notice });
        }
      }
    } else {
      untrustedDotenv = dotenvPath;
    }
  }

  const settings = loadSettings({
    env,
    cwd,
    homeDir,
    files,
    warnings,
    ...(untrustedDotenv === undefined ? {} : { untrustedDotenv }),
  });
  await assertStateDirUsable(settings.stateDir);
  return settings;
}

/**
 * The state dir as the trusted sources set it, or undefined when they set an invalid one (loading
 * reports that a moment later).
 */
function trustedStateDir(
  env: LoadSettingsFromFilesOptions['env'],
  files: readonly SettingsFile[],
  context: PathContext,
): string | undefined {
  const variable = SETTING_VARIABLES.stateDir;
  const found = new SettingLookup(env, files).first(
    [variable.name, ...variable.aliases],
    variable.emptyIsValue,
  );
  if (found === undefined) return variable.fallback(context);
  const parsed = variable.schema(context).safeParse(found.raw);
  return parsed.success ? parsed.data : undefined;
}

/**
 * True when `path` exists, is not a directory, and is not one of the files already loaded (the
 * current directory may be the user's config folder, or `envFile` may name `./.env`).
 */
async function isLoadableFile(path: string, loaded: readonly SettingsFile[]): Promise<boolean> {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined || info.isDirectory()) return false;
  const real = await realpath(path).catch(() => path);
  for (const file of loaded) {
    if ((await realpath(file.path).catch(() => file.path)) === real) return false;
  }
  return true;
}
