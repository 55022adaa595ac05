import { resolve } from 'node:path';
import { type FoundSetting, SettingLookup, type SettingsFile } from './setting-lookup.js';
import { SETTING_VARIABLES, type SettingVariable } from './setting-variables.js';
import { InvalidSettingsError, invalidValueLine } from './settings-error.js';
import type { SettingSource, Settings, SettingWarning } from './settings-schema.js';
import { findUnknownVariables } from './unknown-variables.js';
import { userConfigDir } from './user-config.js';
import type { PathContext } from './value-schemas.js';

/**
 * Inputs of {@link loadSettings}. Only the caller touches `process.env`, `process.cwd()` and the
 * file system, so loading is pure and easy to test.
 *
 * @example
 * const options: LoadSettingsOptions = { env: process.env, cwd: process.cwd(), homeDir: os.homedir() };
 */
export interface LoadSettingsOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly homeDir: string;
  /**
   * Parsed settings files, strongest first; each only fills variables that are unset in `env` and
   * in the files before it. `loadSettingsFromFiles` finds and reads them the way the CLI does.
   */
  readonly files?: readonly SettingsFile[];
  /**
   * Values from a `.env` file, weaker than every entry of `files`; reported with source `.env`.
   * Shorthand for a last `files` entry.
   */
  readonly dotenv?: Readonly<Record<string, string>>;
  /** A `.env` that exists but was deliberately not read (its directory is not trusted). */
  readonly untrustedDotenv?: string;
  /** Warnings found while finding and reading the files, reported before the rest. */
  readonly warnings?: readonly SettingWarning[];
  /**
   * Settings files of the front end's own beyond the user's config folder, the trust list and
   * the `env-file` entries of `files` (which count already): the server's `.env`, read or not.
   * They join {@link Settings.settingsPaths}.
   */
  readonly settingsPaths?: readonly string[];
}

/**
 * Builds the validated, frozen {@link Settings} from the environment and parsed settings files.
 * Every variable is checked before anything is reported, so one error lists every problem.
 * Unknown `TINY_CLAW_*` / `FEISHU_*` variables do not fail: they come back in `warnings`.
 *
 * @throws InvalidSettingsError (a ConfigurationError, exit code 78) with one line per problem, e.g.
 *   `TINY_CLAW_MAX_TOKENS="abc" is invalid: expected an integer from 1 to 1000000.`
 * @example
 * const values = await loadDotenv('/home/me/.config/tiny-claw/.env');
 * const settings = loadSettings({
 *   env: process.env, cwd: process.cwd(), homeDir: os.homedir(),
 *   files: [{ source: 'user config', path: '/home/me/.config/tiny-claw/.env', values }],
 * });
 */
export function loadSettings(options: LoadSettingsOptions): Settings {
  const files: SettingsFile[] = [...(options.files ?? [])];
  if (options.dotenv !== undefined) {
    files.push({ source: '.env', path: '.env', values: options.dotenv });
  }
  const lookup = new SettingLookup(options.env, files);
  const context: PathContext = { cwd: options.cwd, homeDir: options.homeDir };
  const problems: string[] = [];

  const readFound = <T>(variable: SettingVariable<T>): { value: T; found?: FoundSetting } => {
    const found = lookup.first([variable.name, ...variable.aliases], variable.emptyIsValue);
    if (found === undefined) return { value: variable.fallback(context) };
    const parsed = variable.schema(context).safeParse(found.raw);
    if (parsed.success) return { value: parsed.data, found };
    const expected = parsed.error.issues[0]?.message ?? 'the value could not be parsed';
    problems.push(invalidValueLine(found.name, found.raw, expected, variable.secret, found.file));
    return { value: variable.fallback(context) };
  };
  const read = <T>(variable: SettingVariable<T>): T => readFound(variable).value;

  const v = SETTING_VARIABLES;
  // Read in table order so the error lines come out in the order `health` lists the variables.
  const settings: Settings = {
    provider: read(v.provider),
    model: read(v.model),
    maxTokens: read(v.maxTokens),
    stateDir: read(v.stateDir),
    stateUrl: read(v.stateUrl),
    statePoolSize: read(v.statePoolSize),
    chatLeaseSeconds: read(v.chatLeaseSeconds),
    workdir: read(v.workdir),
    allowRootWorkdir: read(v.allowRootWorkdir),
    enabledTools: read(v.enabledTools),
    toolAllowlist: read(v.toolAllowlist),
    toolDenylist: read(v.toolDenylist),
    approvalProvider: read(v.approvalProvider),
    approvalRequiredTools: read(v.approvalRequiredTools),
    approvalTimeoutSeconds: read(v.approvalTimeoutSeconds),
    traceMode: read(v.traceMode),
    traceMaxPayloadChars: read(v.traceMaxPayloadChars),
    logLevel: read(v.logLevel),
    logFormat: read(v.logFormat),
    server: Object.freeze({ host: read(v.serverHost), port: read(v.serverPort) }),
    contextMaxChars: read(v.contextMaxChars),
    contextRetainLastMessages: read(v.contextRetainLastMessages),
    maxParallelTools: read(v.maxParallelTools),
    sandbox: read(v.sandbox),
    sandboxNetwork: read(v.sandboxNetwork),
    sandboxHide: read(v.sandboxHide),
    scriptPath: read(v.scriptPath),
    pricesPath: read(v.pricesPath),
    otelEndpoint: read(v.otelEndpoint),
    otelHeaders: read(v.otelHeaders),
    stream: read(v.stream),
    openaiTokenParameter: read(v.openaiTokenParameter),
    openai: credentials(readFound(v.openaiApiKey), read(v.openaiBaseUrl)),
    anthropic: credentials(readFound(v.anthropicApiKey), read(v.anthropicBaseUrl)),
    feishu: Object.freeze({
      ...defined('appId', read(v.feishuAppId)),
      ...defined('appSecret', read(v.feishuAppSecret)),
      ...defined('verificationToken', read(v.feishuVerificationToken)),
      ...defined('encryptKey', read(v.feishuEncryptKey)),
      eventPath: read(v.feishuEventPath),
      approvers: read(v.feishuApprovers),
      mode: read(v.feishuMode),
      domain: read(v.feishuDomain),
    }),
    configDir: userConfigDir(options.env, options.homeDir),
    // Filled in once the state dir is known (the trust list lives there).
    settingsPaths: [],
    sources: collectSources(lookup),
    warnings: collectWarnings(options, files),
  };

  // A script that is set but invalid has already been reported above.
  if (settings.provider === 'scripted' && lookup.get(v.scriptPath.name, false) === undefined) {
    problems.push(
      'TINY_CLAW_SCRIPT is required when TINY_CLAW_PROVIDER=scripted: set it to the path of a JSON script file.',
    );
  }
  if (problems.length > 0) throw new InvalidSettingsError(problems);
  return Object.freeze({ ...settings, settingsPaths: settingsPathsOf(settings, files, options) });
}

/**
 * Where these settings, the trust behind them and tiny-claw's own state live: the user's config
 * folder, the state dir (the trust list, approvals, checkpoints and traces are there), every
 * `--env-file`, and the front end's own files. Each path once, in that order.
 */
function settingsPathsOf(
  settings: Settings,
  files: readonly SettingsFile[],
  options: LoadSettingsOptions,
): readonly string[] {
  const paths = [
    settings.configDir,
    settings.stateDir,
    ...files.filter((file) => file.source === 'env-file').map((file) => file.path),
    ...(options.settingsPaths ?? []).map((path) => resolve(options.cwd, path)),
  ];
  return Object.freeze([...new Set(paths)]);
}

function collectWarnings(
  options: LoadSettingsOptions,
  files: readonly SettingsFile[],
): readonly SettingWarning[] {
  const warnings: SettingWarning[] = [...(options.warnings ?? [])];
  if (options.untrustedDotenv !== undefined) {
    warnings.push({ kind: 'untrusted-dotenv', path: options.untrustedDotenv });
  }
  warnings.push(...findUnknownVariables(options.env, files));
  return Object.freeze(warnings.map((warning) => Object.freeze(warning)));
}

function credentials(
  key: { value: string | undefined; found?: FoundSetting },
  baseUrl: string | undefined,
): Settings['openai'] {
  return Object.freeze({
    ...defined('apiKey', key.value),
    ...(key.value === undefined ? {} : defined('apiKeySource', key.found?.name)),
    ...defined('baseUrl', baseUrl),
  });
}

/** Omits optional fields that have no value, so `'apiKey' in settings.openai` means "configured". */
function defined<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

function collectSources(lookup: SettingLookup): Readonly<Record<string, SettingSource>> {
  const sources: Record<string, SettingSource> = {};
  for (const variable of Object.values(SETTING_VARIABLES)) {
    for (const name of [variable.name, ...variable.aliases]) {
      sources[name] = lookup.sourceOf(name, variable.emptyIsValue);
    }
  }
  return Object.freeze(sources);
}
