import { join } from 'node:path';
import type { z } from 'zod';
import {
  APPROVAL_PROVIDERS,
  FEISHU_MODES,
  LOG_FORMATS,
  LOG_LEVELS,
  PROVIDER_SETTINGS,
  SANDBOX_SETTINGS,
  type Settings,
  TRACE_MODES,
} from './settings-schema.js';
import {
  choiceSchema,
  feishuDomainSchema,
  hostSchema,
  httpUrlSchema,
  idListSchema,
  integerSchema,
  otelHeadersSchema,
  type PathContext,
  pathListSchema,
  pathSchema,
  policyListSchema,
  postgresUrlSchema,
  resolveUserPath,
  textSchema,
  toolListSchema,
  urlPathSchema,
} from './value-schemas.js';

/**
 * One environment variable: its names, how its raw string is parsed, its default and how its
 * effective value is shown by `tiny-claw health`. This table is the single source for loading,
 * describing and documenting settings.
 *
 * @example
 * SETTING_VARIABLES.maxTokens.schema(context).parse('2048'); // → 2048
 */
export interface SettingVariable<T> {
  /** Canonical variable name. */
  readonly name: string;
  /** Other names read after `name`, in order; the first one that is set wins. */
  readonly aliases: readonly string[];
  readonly description: string;
  /** Secrets are masked wherever a value is shown. */
  readonly secret: boolean;
  /** When true an empty string is a real value (e.g. "no tools"), not "unset". */
  readonly emptyIsValue: boolean;
  readonly schema: (context: PathContext) => z.ZodType<T, string>;
  readonly fallback: (context: PathContext) => T;
  /** The effective value as text, or undefined when unset. */
  readonly show: (settings: Settings) => string | undefined;
}

interface VariableSpec<T> {
  readonly aliases?: readonly string[];
  readonly description: string;
  readonly secret?: boolean;
  readonly emptyIsValue?: boolean;
  readonly schema: (context: PathContext) => z.ZodType<T, string>;
  readonly fallback: (context: PathContext) => T;
  readonly show: (settings: Settings) => string | undefined;
}

function variable<T>(name: string, spec: VariableSpec<T>): SettingVariable<T> {
  return Object.freeze({
    name,
    aliases: spec.aliases ?? [],
    description: spec.description,
    secret: spec.secret ?? false,
    emptyIsValue: spec.emptyIsValue ?? false,
    schema: spec.schema,
    fallback: spec.fallback,
    show: spec.show,
  });
}

const unset = (): undefined => undefined;
/** `on` or `off`, also spelled true/false, 1/0 or yes/no. */
const onOff = () =>
  choiceSchema(['on', 'off'], {
    true: 'on',
    false: 'off',
    '1': 'on',
    '0': 'off',
    yes: 'on',
    no: 'off',
  });
const showList = (list: readonly string[]): string => (list.length > 0 ? list.join(',') : '(none)');

/**
 * Every variable tiny-claw reads, in the order `tiny-claw health` shows them.
 *
 * @example
 * for (const v of Object.values(SETTING_VARIABLES)) console.log(v.name, v.description);
 */
export const SETTING_VARIABLES = {
  provider: variable('TINY_CLAW_PROVIDER', {
    description: 'Model provider; auto picks openai, then claude, then echo by the keys present.',
    schema: () => choiceSchema(PROVIDER_SETTINGS),
    fallback: () => 'auto' as const,
    show: (s) => s.provider,
  }),
  model: variable<string | undefined>('TINY_CLAW_MODEL', {
    description: 'Model name; defaults to the provider default.',
    schema: textSchema,
    fallback: unset,
    show: (s) => s.model,
  }),
  maxTokens: variable('TINY_CLAW_MAX_TOKENS', {
    description: 'Maximum tokens the model may generate per call.',
    schema: () => integerSchema(1, 1_000_000),
    fallback: () => 4096,
    show: (s) => String(s.maxTokens),
  }),
  stateDir: variable('TINY_CLAW_STATE_DIR', {
    description: 'Directory for sessions, approvals, traces and usage.',
    schema: pathSchema,
    fallback: (context) => resolveUserPath(join(context.homeDir, '.tiny-claw'), context),
    show: (s) => s.stateDir,
  }),
  stateUrl: variable<string | undefined>('TINY_CLAW_STATE_URL', {
    description:
      'PostgreSQL URL (postgres://… or postgresql://…, TLS with sslmode=…) of a state store several processes share; unset keeps state in files under TINY_CLAW_STATE_DIR.',
    schema: postgresUrlSchema,
    fallback: unset,
    show: (s) => s.stateUrl,
  }),
  statePoolSize: variable('TINY_CLAW_STATE_POOL_SIZE', {
    description: 'Most connections open at once to the PostgreSQL state store.',
    schema: () => integerSchema(2, 1000),
    fallback: () => 10,
    show: (s) => String(s.statePoolSize),
  }),
  chatLeaseSeconds: variable('TINY_CLAW_CHAT_LEASE_SECONDS', {
    description:
      "Seconds a server replica holds a chat's lease while it runs that chat's work (renewed every third of it); another replica takes over a crashed one's chats after it.",
    schema: () => integerSchema(1, 3600),
    fallback: () => 30,
    show: (s) => String(s.chatLeaseSeconds),
  }),
  workdir: variable('TINY_CLAW_WORKDIR', {
    description: 'Directory the tools work in and may not leave.',
    schema: pathSchema,
    fallback: (context) => resolveUserPath(context.cwd, context),
    show: (s) => s.workdir,
  }),
  allowRootWorkdir: variable('TINY_CLAW_ALLOW_ROOT_WORKDIR', {
    description:
      'Let write, edit and bash work with / or the home directory as the workdir (on); refused otherwise.',
    schema: onOff,
    fallback: () => 'off' as const,
    show: (s) => s.allowRootWorkdir,
  }),
  enabledTools: variable('TINY_CLAW_ENABLED_TOOLS', {
    description: 'Tools the model may call; an empty value enables none.',
    emptyIsValue: true,
    schema: toolListSchema,
    fallback: () => Object.freeze(['read' as const]),
    show: (s) => showList(s.enabledTools),
  }),
  toolAllowlist: variable('TINY_CLAW_TOOL_ALLOWLIST', {
    description:
      'If set, only these tools may run (MCP tools as mcp__<server>__<tool> or mcp__<server>__*).',
    schema: policyListSchema,
    fallback: () => Object.freeze([]),
    show: (s) => showList(s.toolAllowlist),
  }),
  toolDenylist: variable('TINY_CLAW_TOOL_DENYLIST', {
    description:
      'Tools that may never run (MCP tools as mcp__<server>__<tool> or mcp__<server>__*).',
    schema: policyListSchema,
    fallback: () => Object.freeze([]),
    show: (s) => showList(s.toolDenylist),
  }),
  approvalProvider: variable('TINY_CLAW_APPROVAL_PROVIDER', {
    description: 'Who approves risky tool calls.',
    schema: () => choiceSchema(APPROVAL_PROVIDERS),
    fallback: () => 'auto' as const,
    show: (s) => s.approvalProvider,
  }),
  approvalRequiredTools: variable('TINY_CLAW_APPROVAL_REQUIRED_TOOLS', {
    description: 'Tools whose calls need approval.',
    schema: toolListSchema,
    fallback: () => Object.freeze(['bash', 'edit', 'write'] as const),
    show: (s) => showList(s.approvalRequiredTools),
  }),
  approvalTimeoutSeconds: variable('TINY_CLAW_APPROVAL_TIMEOUT_SECONDS', {
    description: 'Seconds a pending approval stays valid.',
    schema: () => integerSchema(1),
    fallback: () => 3600,
    show: (s) => String(s.approvalTimeoutSeconds),
  }),
  traceMode: variable('TINY_CLAW_TRACE_MODE', {
    description: 'What traces keep: nothing, metadata only, or redacted payloads.',
    schema: () => choiceSchema(TRACE_MODES),
    fallback: () => 'metadata' as const,
    show: (s) => s.traceMode,
  }),
  traceMaxPayloadChars: variable('TINY_CLAW_TRACE_MAX_PAYLOAD_CHARS', {
    description: 'Longest payload a replay trace keeps.',
    schema: () => integerSchema(1),
    fallback: () => 4000,
    show: (s) => String(s.traceMaxPayloadChars),
  }),
  logLevel: variable('TINY_CLAW_LOG_LEVEL', {
    description: 'Lowest log level written.',
    schema: () => choiceSchema(LOG_LEVELS, { warning: 'warn', critical: 'error' }),
    fallback: () => 'warn' as const,
    show: (s) => s.logLevel,
  }),
  logFormat: variable('TINY_CLAW_LOG_FORMAT', {
    description:
      'How log lines are written to stderr: text (time, level, message, key=value fields) or json (one object per line).',
    schema: () => choiceSchema(LOG_FORMATS),
    fallback: () => 'text' as const,
    show: (s) => s.logFormat,
  }),
  serverHost: variable('TINY_CLAW_SERVER_HOST', {
    description: 'Address the server listens on.',
    schema: hostSchema,
    fallback: () => '0.0.0.0',
    show: (s) => s.server.host,
  }),
  serverPort: variable('TINY_CLAW_SERVER_PORT', {
    description: 'Port the server listens on.',
    schema: () => integerSchema(1, 65535),
    fallback: () => 8000,
    show: (s) => String(s.server.port),
  }),
  contextMaxChars: variable('TINY_CLAW_CONTEXT_MAX_CHARS', {
    description: 'Context size in characters above which old turns are compacted.',
    schema: () => integerSchema(1000),
    fallback: () => 120_000,
    show: (s) => String(s.contextMaxChars),
  }),
  contextRetainLastMessages: variable('TINY_CLAW_CONTEXT_RETAIN_LAST_MESSAGES', {
    description: 'Most recent messages compaction never touches.',
    schema: () => integerSchema(1),
    fallback: () => 8,
    show: (s) => String(s.contextRetainLastMessages),
  }),
  maxParallelTools: variable('TINY_CLAW_MAX_PARALLEL_TOOLS', {
    description: 'Most parallel-safe tool calls run at once.',
    schema: () => integerSchema(1, 64),
    fallback: () => 4,
    show: (s) => String(s.maxParallelTools),
  }),
  sandbox: variable('TINY_CLAW_SANDBOX', {
    description:
      'How bash commands are confined: bwrap (bubblewrap), off, or auto (bwrap when it works here).',
    schema: () => choiceSchema(SANDBOX_SETTINGS),
    fallback: () => 'auto' as const,
    show: (s) => s.sandbox,
  }),
  sandboxNetwork: variable('TINY_CLAW_SANDBOX_NETWORK', {
    description: 'Whether sandboxed bash commands may use the network.',
    schema: () => choiceSchema(['on', 'off'], { true: 'on', false: 'off', '1': 'on', '0': 'off' }),
    fallback: () => 'off' as const,
    show: (s) => s.sandboxNetwork,
  }),
  sandboxHide: variable('TINY_CLAW_SANDBOX_HIDE', {
    description:
      'More paths (comma-separated) hidden from sandboxed commands, beyond ~/.ssh, ~/.aws and the other credential locations.',
    schema: pathListSchema,
    fallback: () => Object.freeze([]),
    show: (s) => showList(s.sandboxHide),
  }),
  scriptPath: variable<string | undefined>('TINY_CLAW_SCRIPT', {
    description: 'JSON script replayed by the scripted provider.',
    schema: pathSchema,
    fallback: unset,
    show: (s) => s.scriptPath,
  }),
  pricesPath: variable<string | undefined>('TINY_CLAW_PRICES', {
    description: 'JSON file of model prices (USD per 1M tokens) added to the built-in table.',
    schema: pathSchema,
    fallback: unset,
    show: (s) => s.pricesPath,
  }),
  otelEndpoint: variable<string | undefined>('TINY_CLAW_OTEL_ENDPOINT', {
    description:
      'OTLP/HTTP collector that also receives every trace (spans go to <endpoint>/v1/traces).',
    schema: httpUrlSchema,
    fallback: unset,
    show: (s) => s.otelEndpoint,
  }),
  otelHeaders: variable<string | undefined>('TINY_CLAW_OTEL_HEADERS', {
    description: 'Headers for the OTLP collector, as key=value pairs separated by commas.',
    secret: true,
    schema: otelHeadersSchema,
    fallback: unset,
    show: (s) => s.otelHeaders,
  }),
  stream: variable('TINY_CLAW_STREAM', {
    description: 'Stream model output as it is generated (on) or wait for whole answers (off).',
    schema: onOff,
    fallback: () => 'on' as const,
    show: (s) => s.stream,
  }),
  openaiTokenParameter: variable('TINY_CLAW_OPENAI_TOKEN_PARAMETER', {
    description:
      'Token-limit parameter sent to OpenAI: auto (max_completion_tokens for reasoning models), max_tokens or max_completion_tokens.',
    schema: () => choiceSchema(['auto', 'max_tokens', 'max_completion_tokens']),
    fallback: () => 'auto' as const,
    show: (s) => s.openaiTokenParameter,
  }),
  openaiApiKey: variable<string | undefined>('OPENAI_API_KEY', {
    aliases: ['OPENAI_KEY', 'TINY_CLAW_OPENAI_API_KEY'],
    description: 'OpenAI API key.',
    secret: true,
    schema: textSchema,
    fallback: unset,
    show: (s) => s.openai.apiKey,
  }),
  openaiBaseUrl: variable<string | undefined>('OPENAI_BASE_URL', {
    aliases: ['TINY_CLAW_OPENAI_BASE_URL'],
    description: 'Base URL of an OpenAI-compatible server.',
    schema: httpUrlSchema,
    fallback: unset,
    show: (s) => s.openai.baseUrl,
  }),
  anthropicApiKey: variable<string | undefined>('ANTHROPIC_API_KEY', {
    aliases: ['CLAUDE_KEY', 'CLAUDE_API_KEY', 'TINY_CLAW_CLAUDE_API_KEY'],
    description: 'Anthropic API key.',
    secret: true,
    schema: textSchema,
    fallback: unset,
    show: (s) => s.anthropic.apiKey,
  }),
  anthropicBaseUrl: variable<string | undefined>('ANTHROPIC_BASE_URL', {
    description: 'Base URL of the Anthropic API.',
    schema: httpUrlSchema,
    fallback: unset,
    show: (s) => s.anthropic.baseUrl,
  }),
  feishuAppId: variable<string | undefined>('FEISHU_APP_ID', {
    aliases: ['LARK_APP_ID'],
    description: 'Feishu / Lark app id.',
    schema: textSchema,
    fallback: unset,
    show: (s) => s.feishu.appId,
  }),
  feishuAppSecret: variable<string | undefined>('FEISHU_APP_SECRET', {
    aliases: ['LARK_APP_SECRET'],
    description: 'Feishu / Lark app secret.',
    secret: true,
    schema: textSchema,
    fallback: unset,
    show: (s) => s.feishu.appSecret,
  }),
  feishuVerificationToken: variable<string | undefined>('FEISHU_VERIFICATION_TOKEN', {
    description: 'Token Feishu sends with every event.',
    secret: true,
    schema: textSchema,
    fallback: unset,
    show: (s) => s.feishu.verificationToken,
  }),
  feishuEncryptKey: variable<string | undefined>('FEISHU_ENCRYPT_KEY', {
    description: 'Key Feishu encrypts events with.',
    secret: true,
    schema: textSchema,
    fallback: unset,
    show: (s) => s.feishu.encryptKey,
  }),
  feishuEventPath: variable('FEISHU_EVENT_PATH', {
    description: 'Server path Feishu posts events to.',
    schema: urlPathSchema,
    fallback: () => '/api/events/feishu',
    show: (s) => s.feishu.eventPath,
  }),
  feishuApprovers: variable('FEISHU_APPROVERS', {
    description: 'Open ids of the people who may approve tool calls in a chat.',
    schema: () => idListSchema('Feishu open ids such as ou_1a2b3c'),
    fallback: () => Object.freeze([]),
    show: (s) => showList(s.feishu.approvers),
  }),
  feishuMode: variable('FEISHU_MODE', {
    description:
      'How the server receives Feishu events: webhook (Feishu posts to it) or ws (long connection, no public URL).',
    schema: () => choiceSchema(FEISHU_MODES),
    fallback: () => 'webhook' as const,
    show: (s) => s.feishu.mode,
  }),
  feishuDomain: variable('FEISHU_DOMAIN', {
    description: 'Which open API the server talks to: feishu, lark, or a base URL.',
    schema: feishuDomainSchema,
    fallback: () => 'feishu',
    show: (s) => s.feishu.domain,
  }),
} as const;

/** Any entry of {@link SETTING_VARIABLES}. */
export type AnySettingVariable = (typeof SETTING_VARIABLES)[keyof typeof SETTING_VARIABLES];

/**
 * Every variable name tiny-claw reads, aliases included.
 *
 * @example
 * SETTING_VARIABLE_NAMES.includes('OPENAI_KEY'); // → true
 */
export const SETTING_VARIABLE_NAMES: readonly string[] = Object.freeze(
  Object.values(SETTING_VARIABLES).flatMap((v) => [v.name, ...v.aliases]),
);
