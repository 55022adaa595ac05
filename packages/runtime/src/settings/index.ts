export { describeSettings, type SettingRow } from './describe-settings.js';
export { loadDotenv, parseDotenv, readDotenvFile } from './dotenv.js';
export { type LoadSettingsOptions, loadSettings } from './load-settings.js';
export { maskSecret, redactUrlCredentials } from './mask-secret.js';
export {
  chooseProvider,
  defaultModel,
  type ProviderChoice,
  type ProviderName,
  type ProviderSettings,
  requireProviderKey,
} from './provider-choice.js';
export { rootWorkdirRefusal } from './root-workdir.js';
export type { SettingsFile } from './setting-lookup.js';
export {
  SETTING_VARIABLE_NAMES,
  SETTING_VARIABLES,
  type SettingVariable,
} from './setting-variables.js';
export { InvalidSettingsError } from './settings-error.js';
export {
  readSettingsFile,
  SETTINGS_FILE_MAX_BYTES,
  SettingsFileError,
} from './settings-file-read.js';
export { type LoadSettingsFromFilesOptions, loadSettingsFromFiles } from './settings-files.js';
export {
  APPROVAL_PROVIDERS,
  type ApprovalProviderSetting,
  FEISHU_MODES,
  type FeishuModeSetting,
  type FeishuSettings,
  LOG_FORMATS,
  LOG_LEVELS,
  type LogFormatSetting,
  type LogLevelSetting,
  PROVIDER_SETTINGS,
  type ProviderCredentials,
  type ProviderSetting,
  SANDBOX_SETTINGS,
  type SandboxSetting,
  type SettingFileSource,
  type SettingSource,
  type Settings,
  type SettingWarning,
  TRACE_MODES,
  type TraceModeSetting,
} from './settings-schema.js';
export { assertStateDirUsable } from './state-dir-check.js';
export {
  isTrustedFolder,
  noticeTrustedDotenv,
  readTrustedFolders,
  settingsFileSha256,
  TRUSTED_FOLDERS_FILE,
  type TrustChange,
  type TrustedDotenvNotice,
  type TrustedFolder,
  trustedFoldersPath,
  trustFolder,
  untrustFolder,
} from './trusted-folders.js';
export { closestKnownName, KNOWN_VARIABLE_NAMES } from './unknown-variables.js';
export { userConfigDir, userConfigFile } from './user-config.js';
export { type McpPolicyName, TOOL_NAMES, type ToolName } from './value-schemas.js';
