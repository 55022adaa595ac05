import type { McpPolicyName, ToolName } from './value-schemas.js';

/** Accepted values of `TINY_CLAW_PROVIDER`; `anthropic` is another name for `claude`. */
export const PROVIDER_SETTINGS = [
  'auto',
  'openai',
  'claude',
  'anthropic',
  'echo',
  'scripted',
] as const;

/** Accepted values of `TINY_CLAW_APPROVAL_PROVIDER`. */
export const APPROVAL_PROVIDERS = ['auto', 'off', 'cli', 'feishu'] as const;

/** Accepted values of `TINY_CLAW_TRACE_MODE`. */
export const TRACE_MODES = ['off', 'metadata', 'replay'] as const;

/** Accepted values of `TINY_CLAW_SANDBOX`: `auto` picks bubblewrap when it works here. */
export const SANDBOX_SETTINGS = ['auto', 'bwrap', 'off'] as const;

/** The value of `TINY_CLAW_SANDBOX`. */
export type SandboxSetting = (typeof SANDBOX_SETTINGS)[number];

/** Log levels after normalisation (`warning` → `warn`, `critical` → `error`). */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** Accepted values of `TINY_CLAW_LOG_FORMAT`: plain text lines, or one JSON object per line. */
export const LOG_FORMATS = ['text', 'json'] as const;

/** The value of `TINY_CLAW_PROVIDER`. */
export type ProviderSetting = (typeof PROVIDER_SETTINGS)[number];

/** The value of `TINY_CLAW_APPROVAL_PROVIDER`. */
export type ApprovalProviderSetting = (typeof APPROVAL_PROVIDERS)[number];

/** The value of `TINY_CLAW_TRACE_MODE`. */
export type TraceModeSetting = (typeof TRACE_MODES)[number];

/** The value of `TINY_CLAW_LOG_LEVEL`. */
export type LogLevelSetting = (typeof LOG_LEVELS)[number];

/** The value of `TINY_CLAW_LOG_FORMAT`. */
export type LogFormatSetting = (typeof LOG_FORMATS)[number];

/**
 * Where a variable's effective value came from, strongest first: the real environment, the file
 * named on the command line, the user's own settings file, the `.env` of a trusted current
 * directory, or the built-in default.
 */
export type SettingSource = 'env' | 'env-file' | 'user config' | '.env' | 'default';

/** A source that is a file. */
export type SettingFileSource = Extract<SettingSource, 'env-file' | 'user config' | '.env'>;

/**
 * Something about the configuration worth telling the user that does not stop tiny-claw.
 *
 * - `unknown-variable`: a `TINY_CLAW_*` or `FEISHU_*` variable that tiny-claw does not read (a
 *   typo, most often), with the known name closest to it and where it was set (`file` for a
 *   variable from a settings file).
 * - `untrusted-dotenv`: the current directory has a `.env` that was not read because the directory
 *   is not trusted; `path` is that file.
 * - `trusted-dotenv-changed`: the `.env` of a trusted current directory (`path`) is used although
 *   it is not the one recorded when the folder was trusted (`trustedAt`): it `changed` since, or
 *   the folder was trusted before contents were recorded (`unrecorded`; recorded now). Reported
 *   once per content.
 *
 * @example
 * const warning: SettingWarning = {
 *   kind: 'unknown-variable', name: 'TINY_CLAW_ENABLE_TOOLS', source: 'env', suggestion: 'TINY_CLAW_ENABLED_TOOLS',
 * };
 */
export type SettingWarning =
  | {
      readonly kind: 'unknown-variable';
      readonly name: string;
      readonly source: Exclude<SettingSource, 'default'>;
      readonly file?: string;
      readonly suggestion: string;
    }
  | { readonly kind: 'untrusted-dotenv'; readonly path: string }
  | {
      readonly kind: 'trusted-dotenv-changed';
      readonly path: string;
      readonly trustedAt: string;
      readonly change: 'changed' | 'unrecorded';
    };

/**
 * Credentials and endpoint of one model vendor.
 *
 * @example
 * const openai: ProviderCredentials = { apiKey: 'sk-…', apiKeySource: 'OPENAI_API_KEY' };
 */
export interface ProviderCredentials {
  readonly apiKey?: string;
  /** The variable the key was read from, e.g. `OPENAI_KEY` when an alias supplied it. */
  readonly apiKeySource?: string;
  readonly baseUrl?: string;
}

/**
 * How the server receives Feishu events: `webhook` (Feishu posts to the server) or `ws` (the
 * SDK's long connection, no public URL needed).
 *
 * @example
 * FEISHU_MODES.includes('ws'); // → true
 */
export const FEISHU_MODES = ['webhook', 'ws'] as const;

/**
 * One of {@link FEISHU_MODES}.
 *
 * @example
 * const mode: FeishuModeSetting = 'webhook';
 */
export type FeishuModeSetting = (typeof FEISHU_MODES)[number];

/**
 * Feishu / Lark app settings used by the server and the Feishu approval provider.
 *
 * @example
 * const feishu: FeishuSettings = { eventPath: '/api/events/feishu', approvers: ['ou_123'], mode: 'webhook', domain: 'feishu' };
 */
export interface FeishuSettings {
  readonly appId?: string;
  readonly appSecret?: string;
  readonly verificationToken?: string;
  readonly encryptKey?: string;
  readonly eventPath: string;
  /** Open ids of the people allowed to approve risky tool calls from a chat. */
  readonly approvers: readonly string[];
  /** How the server receives events. */
  readonly mode: FeishuModeSetting;
  /** Which open API: `feishu`, `lark`, or a base URL (`https://host[:port]`, no path). */
  readonly domain: string;
}

/**
 * The validated, frozen configuration of one tiny-claw process. Produced by `loadSettings`.
 *
 * @example
 * const settings = loadSettings({ env: process.env, cwd: process.cwd(), homeDir: os.homedir() });
 * settings.maxTokens; // 4096 unless TINY_CLAW_MAX_TOKENS says otherwise
 */
export interface Settings {
  readonly provider: ProviderSetting;
  readonly model: string | undefined;
  readonly maxTokens: number;
  /** Absolute directory for sessions, approvals, traces and usage. */
  readonly stateDir: string;
  /**
   * PostgreSQL URL of the state store (`TINY_CLAW_STATE_URL`); undefined keeps state in files
   * under `stateDir`.
   */
  readonly stateUrl: string | undefined;
  /** Most connections to the PostgreSQL state store at once. */
  readonly statePoolSize: number;
  /**
   * Seconds a server replica holds a chat's lease while that chat's work runs
   * (`TINY_CLAW_CHAT_LEASE_SECONDS`): renewed every third of it, and taken over by another
   * replica once a crashed holder lets it expire.
   */
  readonly chatLeaseSeconds: number;
  /** Absolute directory the tools may touch. Whether it exists is checked by callers. */
  readonly workdir: string;
  /**
   * Whether the workdir may be the filesystem root or the home directory while write, edit or
   * bash is enabled (`TINY_CLAW_ALLOW_ROOT_WORKDIR`); front ends refuse such a workdir otherwise.
   */
  readonly allowRootWorkdir: 'on' | 'off';
  readonly enabledTools: readonly ToolName[];
  /** Empty means every enabled tool is allowed. MCP tools by name or `mcp__<server>__*`. */
  readonly toolAllowlist: readonly (ToolName | McpPolicyName)[];
  readonly toolDenylist: readonly (ToolName | McpPolicyName)[];
  readonly approvalProvider: ApprovalProviderSetting;
  readonly approvalRequiredTools: readonly ToolName[];
  readonly approvalTimeoutSeconds: number;
  readonly traceMode: TraceModeSetting;
  readonly traceMaxPayloadChars: number;
  readonly logLevel: LogLevelSetting;
  /** How log lines are written to stderr: `text` or one JSON object per line. */
  readonly logFormat: LogFormatSetting;
  readonly server: { readonly host: string; readonly port: number };
  readonly contextMaxChars: number;
  readonly contextRetainLastMessages: number;
  readonly maxParallelTools: number;
  /** How bash commands are confined. */
  readonly sandbox: SandboxSetting;
  /** Whether sandboxed commands may use the network. */
  readonly sandboxNetwork: 'on' | 'off';
  /** Absolute paths hidden from sandboxed commands, beyond the built-in credential locations. */
  readonly sandboxHide: readonly string[];
  /** Absolute path of the JSON script replayed by the `scripted` provider. */
  readonly scriptPath: string | undefined;
  /** Absolute path of the user's price table (`TINY_CLAW_PRICES`). */
  readonly pricesPath: string | undefined;
  /** OTLP/HTTP collector endpoint that also receives every trace. */
  readonly otelEndpoint: string | undefined;
  /** Raw `key=value,…` headers for the collector (secret). */
  readonly otelHeaders: string | undefined;
  /** Whether providers stream their output. */
  readonly stream: 'on' | 'off';
  /** Which token-limit parameter the OpenAI provider sends. */
  readonly openaiTokenParameter: 'auto' | 'max_tokens' | 'max_completion_tokens';
  readonly openai: ProviderCredentials;
  readonly anthropic: ProviderCredentials;
  readonly feishu: FeishuSettings;
  /** The user's own tiny-claw folder, `$XDG_CONFIG_HOME/tiny-claw` (default `~/.config/tiny-claw`). */
  readonly configDir: string;
  /**
   * Every file and folder tiny-claw reads its own settings or trust from, absolute: the user's
   * config folder, the file named with `--env-file`, the trust list, and any the front end adds
   * (the server's `.env`). No tool may read or write them; sandboxed commands do not see them.
   */
  readonly settingsPaths: readonly string[];
  /** For every known variable name (aliases included), where its effective value came from. */
  readonly sources: Readonly<Record<string, SettingSource>>;
  /** What the user should hear about while nothing stops: unknown variables, an ignored `.env`. */
  readonly warnings: readonly SettingWarning[];
}
