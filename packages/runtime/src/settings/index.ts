export { describeSettings, type SettingRow } from './describe-settings.js';
export { loadDotenv, parseDotenv } from './dotenv.js';
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
export {
  SETTING_VARIABLE_NAMES,
  SETTING_VARIABLES,
  type SettingVariable,
} from './setting-variables.js';
export { InvalidSettingsError } from './settings-error.js';
export {
  APPROVAL_PROVIDERS,
  type ApprovalProviderSetting,
  type FeishuSettings,
  LOG_LEVELS,
  type LogLevelSetting,
  PROVIDER_SETTINGS,
  type ProviderCredentials,
  type ProviderSetting,
  SANDBOX_SETTINGS,
  type SandboxSetting,
  type SettingSource,
  type Settings,
  TRACE_MODES,
  type TraceModeSetting,
} from './settings-schema.js';
export { TOOL_NAMES, type ToolName } from './value-schemas.js';
