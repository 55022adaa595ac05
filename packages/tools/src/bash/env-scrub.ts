import { isSecretName } from '@tiny-claw/core/utils';

/**
 * Name prefixes of provider, chat-platform and tiny-claw variables. These configure the harness,
 * not the project, so the child never needs them (and `OPENAI_BASE_URL` may embed credentials).
 *
 * @example
 * SCRUBBED_ENV_PREFIXES.includes('OPENAI_'); // true
 */
export const SCRUBBED_ENV_PREFIXES: readonly string[] = [
  'OPENAI_',
  'AZURE_OPENAI_',
  'ANTHROPIC_',
  'CLAUDE_',
  'FEISHU_',
  'LARK_',
  'TINY_CLAW_',
];

/**
 * Values that are credentials whatever their variable is called: PEM private keys, URLs with a
 * user or password part (`postgres://u:p@host`, a Sentry-style `https://key@host`), and well-known token shapes (GitHub, OpenAI/Anthropic `sk-`,
 * AWS access key ids, Slack, Google API keys, JWTs).
 *
 * @example
 * SECRET_VALUE_PATTERNS.some((re) => re.test('ghp_0123456789abcdefghij0123456789abcdef')); // true
 */
export const SECRET_VALUE_PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/,
  /[a-z][a-z0-9+.-]*:\/\/[^/\s@]+@/i,
  /\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}/,
  /\bsk-[A-Za-z0-9_-]{20,}/,
  /\bAKIA[A-Z0-9]{16}\b/,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/,
  /\bAIza[A-Za-z0-9_-]{35}\b/,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/,
];

/**
 * Variables forced in the child: no pager can block on the (closed) stdin, and git never asks for
 * a password on a terminal it does not have.
 *
 * @example
 * SCRUBBED_ENV_OVERRIDES.GIT_TERMINAL_PROMPT; // '0'
 */
export const SCRUBBED_ENV_OVERRIDES: Readonly<Record<string, string>> = {
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
};

/** `NAME` matches exactly (any case); `NAME*` matches as a prefix. */
function matchesExtra(name: string, extra: readonly string[]): boolean {
  const upper = name.toUpperCase();
  return extra.some((entry) => {
    const pattern = entry.toUpperCase();
    return pattern.endsWith('*') ? upper.startsWith(pattern.slice(0, -1)) : upper === pattern;
  });
}

/**
 * True when the variable `name=value` must not reach a command the model runs: a name the shared
 * word-by-word rule calls secret (`GITHUB_TOKEN`, `DATABASE_PASS`, `npm_config__authToken`,
 * `MYSQL_PWD`, `SENTRY_DSN`; not `PWD`, `OLDPWD` or `KEYTIMEOUT`), a harness variable, an extra
 * name, or a value shaped like a credential.
 *
 * @example
 * isSecretEnvVar('OPENAI_API_KEY', 'sk-…'); // true
 * isSecretEnvVar('HOME', '/home/me'); // false
 */
export function isSecretEnvVar(
  name: string,
  value: string,
  extraNames: readonly string[] = [],
): boolean {
  if (isSecretName(name)) return true;
  const upper = name.toUpperCase();
  if (SCRUBBED_ENV_PREFIXES.some((prefix) => upper.startsWith(prefix))) return true;
  if (matchesExtra(name, extraNames)) return true;
  return SECRET_VALUE_PATTERNS.some((pattern) => pattern.test(value));
}

/**
 * Build the environment of a bash child from `env` (normally `process.env`): drop every variable
 * {@link isSecretEnvVar} flags (plus `extraNames`: exact names, or prefixes ending in `*`), then
 * set {@link SCRUBBED_ENV_OVERRIDES}. Pure: `env` is not modified.
 *
 * Not covered: a same-user child can still read the harness's *initial* environment from
 * `/proc/<ppid>/environ`; keep provider keys in a file or keychain when that matters.
 *
 * @example
 * const env = scrubEnvironment({ PATH: '/usr/bin', OPENAI_API_KEY: 'sk-x' }, ['MY_VAR']);
 * // { PATH: '/usr/bin', PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' }
 */
export function scrubEnvironment(
  env: NodeJS.ProcessEnv,
  extraNames: readonly string[] = [],
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (isSecretEnvVar(name, value, extraNames)) continue;
    out[name] = value;
  }
  return { ...out, ...SCRUBBED_ENV_OVERRIDES };
}
