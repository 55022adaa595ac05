import { isAbsolute, resolve, sep } from 'node:path';
import { editDistance } from '@tiny-claw/core/utils';
import { z } from 'zod';

/**
 * Zod schemas that turn one raw environment string into a typed value. Every failure message is
 * the "what is accepted" half of an error line: `VAR="value" is invalid: <message>.`
 */

/**
 * The tools a settings list may name: exactly the tools this version builds — the workspace tools
 * and `explore` (a test keeps this list and the tools package's in step, without loading the
 * tools at start-up).
 */
export const TOOL_NAMES = ['bash', 'edit', 'explore', 'read', 'write'] as const;

/** A tool name accepted in `TINY_CLAW_ENABLED_TOOLS` and the other tool lists. */
export type ToolName = (typeof TOOL_NAMES)[number];

/** Where relative and `~` paths in settings are resolved from. */
export interface PathContext {
  readonly cwd: string;
  readonly homeDir: string;
}

/**
 * An integer in `[min, max]` written as plain decimal digits (so `1.5`, `1e3`, `-1` and `abc` fail).
 *
 * @example
 * integerSchema(1, 65535).parse('8080'); // → 8080
 */
export function integerSchema(min: number, max?: number): z.ZodType<number, string> {
  const expected =
    max === undefined
      ? `expected an integer of at least ${min}`
      : `expected an integer from ${min} to ${max}`;
  return z
    .string()
    .trim()
    .regex(/^[0-9]+$/, expected)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, expected)
        .max(max ?? Number.MAX_SAFE_INTEGER, expected),
    );
}

/**
 * One of `values`, compared after trimming and lower-casing; `aliases` map extra spellings onto
 * accepted values.
 *
 * @example
 * choiceSchema(['debug', 'warn'], { warning: 'warn' }).parse(' WARNING '); // → 'warn'
 */
export function choiceSchema<const T extends string>(
  values: readonly T[],
  aliases: Readonly<Record<string, T>> = {},
): z.ZodType<T, string> {
  const aliasNames = Object.keys(aliases);
  const expected =
    `expected one of: ${values.join(', ')}` +
    (aliasNames.length > 0 ? ` (${aliasNames.join(' and ')} are also accepted)` : '');
  return z
    .string()
    .trim()
    .toLowerCase()
    .transform((value, ctx) => {
      const accepted = (values as readonly string[]).includes(value)
        ? (value as T)
        : aliases[value];
      if (accepted !== undefined) return accepted;
      ctx.addIssue({ code: 'custom', message: expected, input: value });
      return z.NEVER;
    });
}

/**
 * A comma-separated list of tool names: trimmed, lower-cased, de-duplicated and sorted. An empty
 * string is the empty list.
 *
 * @example
 * toolListSchema().parse(' Write, read ,read'); // → ['read', 'write']
 */
export function toolListSchema(): z.ZodType<readonly ToolName[], string> {
  const expected = `expected a comma-separated list of: ${TOOL_NAMES.join(', ')}`;
  return z.string().transform((value, ctx) => {
    const names = splitList(value).map((name) => name.toLowerCase());
    const unknown = [...new Set(names.filter((name) => !isToolName(name)))];
    if (unknown.length > 0) {
      const quoted = unknown.map((name) => `${JSON.stringify(name)}${suggestion(name)}`).join(', ');
      const noun = unknown.length === 1 ? 'tool' : 'tools';
      ctx.addIssue({
        code: 'custom',
        message: `unknown ${noun} ${quoted}; ${expected}`,
        input: value,
      });
      return z.NEVER;
    }
    return Object.freeze([...new Set(names as ToolName[])].sort());
  });
}

/**
 * A name of an MCP server's tool in a policy list: `mcp__<server>__<tool>`, or
 * `mcp__<server>__*` for every tool of that server.
 */
export type McpPolicyName = `mcp__${string}`;

/** `mcp__<server>__<tool>` or `mcp__<server>__*`, letters, digits, `_` and `-` only. */
const MCP_POLICY_NAME = /^mcp__[A-Za-z0-9_-]+?__(?:\*|[A-Za-z0-9_-]+)$/;

/**
 * A comma-separated allow or deny list: the names {@link toolListSchema} accepts, and MCP tools as
 * `mcp__<server>__<tool>` or `mcp__<server>__*` (kept as written: MCP names are case-sensitive).
 *
 * @example
 * policyListSchema().parse('bash, mcp__everything__*'); // → ['bash', 'mcp__everything__*']
 */
export function policyListSchema(): z.ZodType<readonly (ToolName | McpPolicyName)[], string> {
  const builtIn = toolListSchema();
  return z.string().transform((value, ctx) => {
    const items = splitList(value);
    const mcp = items.filter((item) => item.startsWith('mcp__'));
    const bad = mcp.filter((item) => !MCP_POLICY_NAME.test(item));
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `${bad.map((item) => JSON.stringify(item)).join(', ')}: an MCP entry is mcp__<server>__<tool> or mcp__<server>__*`,
        input: value,
      });
      return z.NEVER;
    }
    const rest = builtIn.safeParse(items.filter((item) => !item.startsWith('mcp__')).join(','));
    if (!rest.success) {
      for (const issue of rest.error.issues)
        ctx.addIssue({
          code: 'custom',
          message: `${issue.message}, or MCP tools as mcp__<server>__<tool> / mcp__<server>__*`,
          input: value,
        });
      return z.NEVER;
    }
    const names: (ToolName | McpPolicyName)[] = [...rest.data, ...(mcp as McpPolicyName[])];
    return Object.freeze([...new Set(names)].sort());
  });
}

/**
 * ` (did you mean "bash"?)` for a name at most two edits from a tool name (the closest, the first
 * in order on a tie), else nothing: a typo gets the fix, a name of something else does not get a
 * far-fetched one.
 */
function suggestion(name: string): string {
  let best: ToolName = TOOL_NAMES[0];
  for (const candidate of TOOL_NAMES) {
    if (editDistance(name, candidate) < editDistance(name, best)) best = candidate;
  }
  return editDistance(name, best) <= 2 ? ` (did you mean "${best}"?)` : '';
}

/**
 * A comma-separated list of ids without spaces (Feishu open ids): trimmed, de-duplicated, in the
 * order given.
 *
 * @example
 * idListSchema('Feishu open ids such as ou_123').parse('ou_a, ou_b,ou_a'); // → ['ou_a', 'ou_b']
 */
export function idListSchema(what: string): z.ZodType<readonly string[], string> {
  const expected = `expected a comma-separated list of ${what}, without spaces inside an id`;
  return z.string().transform((value, ctx) => {
    const ids = splitList(value);
    if (ids.some((id) => /\s/.test(id))) {
      ctx.addIssue({ code: 'custom', message: expected, input: value });
      return z.NEVER;
    }
    return Object.freeze([...new Set(ids)]);
  });
}

/**
 * An absolute `http:` or `https:` URL.
 *
 * @example
 * httpUrlSchema().parse('http://127.0.0.1:8080/v1'); // → 'http://127.0.0.1:8080/v1'
 */
export function httpUrlSchema(): z.ZodType<string, string> {
  return z
    .string()
    .trim()
    .refine(
      isHttpUrl,
      'expected an absolute http:// or https:// URL such as https://api.example.com/v1',
    );
}

/**
 * A PostgreSQL connection URL: `postgres://` or `postgresql://`, then at least a host.
 *
 * @example
 * postgresUrlSchema().parse('postgres://claw@db:5432/claw?sslmode=require'); // the same URL
 */
export function postgresUrlSchema(): z.ZodType<string, string> {
  return z
    .string()
    .trim()
    .refine(
      (url) => /^postgres(ql)?:\/\/[^\s]+$/i.test(url),
      'expected a postgres:// or postgresql:// URL such as postgres://user:password@host:5432/db',
    );
}

/**
 * A file system path: `~` and `~/…` are expanded against the home directory, then the path is
 * resolved against the working directory. Existence is not checked.
 *
 * @example
 * pathSchema({ cwd: '/repo', homeDir: '/home/me' }).parse('~/state'); // → '/home/me/state'
 */
export function pathSchema(context: PathContext): z.ZodType<string, string> {
  return z
    .string()
    .trim()
    .refine((path) => !path.includes('\0'), 'expected a file system path without NUL characters')
    .transform((path) => resolveUserPath(path, context));
}

/**
 * A comma-separated list of file system paths, each expanded and resolved like {@link pathSchema};
 * empty entries are skipped and duplicates dropped.
 *
 * @example
 * pathListSchema({ cwd: '/repo', homeDir: '/home/me' }).parse('~/.kube, secrets'); // → ['/home/me/.kube', '/repo/secrets']
 */
export function pathListSchema(context: PathContext): z.ZodType<readonly string[], string> {
  return z
    .string()
    .refine(
      (value) => !value.includes('\0'),
      'expected comma-separated paths without NUL characters',
    )
    .transform((value) =>
      Object.freeze([...new Set(splitList(value).map((path) => resolveUserPath(path, context)))]),
    );
}

/**
 * Expands a leading `~` and resolves `path` to an absolute path against `cwd`.
 *
 * @example
 * resolveUserPath('notes', { cwd: '/repo', homeDir: '/home/me' }); // → '/repo/notes'
 */
export function resolveUserPath(path: string, context: PathContext): string {
  let expanded = path;
  if (path === '~') expanded = context.homeDir;
  else if (path.startsWith('~/') || path.startsWith(`~${sep}`)) {
    expanded = resolve(context.homeDir, path.slice(2));
  }
  return isAbsolute(expanded) ? resolve(expanded) : resolve(context.cwd, expanded);
}

/**
 * A host name or IP address to listen on, without a scheme, path or spaces.
 *
 * @example
 * hostSchema().parse('127.0.0.1'); // → '127.0.0.1'
 */
export function hostSchema(): z.ZodType<string, string> {
  return z
    .string()
    .trim()
    .regex(
      /^[^\s/]+$/,
      'expected a host name or IP address such as 127.0.0.1 or 0.0.0.0, without a scheme or path',
    );
}

/**
 * A request path that starts with `/`.
 *
 * @example
 * urlPathSchema().parse('/api/events/feishu'); // → '/api/events/feishu'
 */
export function urlPathSchema(): z.ZodType<string, string> {
  return z
    .string()
    .trim()
    .regex(/^\/\S*$/, 'expected a URL path that starts with "/" and has no spaces');
}

/**
 * Which Feishu open API: `feishu` or `lark` (any case), or an http(s) base URL without path, query
 * or credentials (a proxy, or a loopback fake in tests), reduced to its origin.
 *
 * @example
 * feishuDomainSchema().parse('LARK'); // → 'lark'
 * feishuDomainSchema().parse('http://127.0.0.1:9000/'); // → 'http://127.0.0.1:9000'
 */
export function feishuDomainSchema(): z.ZodType<string, string> {
  return z
    .string()
    .trim()
    .transform((value, ctx) => {
      const lower = value.toLowerCase();
      if (lower === 'feishu' || lower === 'lark') return lower;
      const url = URL.canParse(value) ? new URL(value) : undefined;
      const plain =
        url !== undefined &&
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        url.username === '' &&
        url.password === '' &&
        url.search === '' &&
        url.hash === '' &&
        url.pathname === '/';
      if (plain) return url.origin;
      ctx.addIssue({
        code: 'custom',
        message:
          'expected feishu, lark, or an http(s) base URL such as https://open.feishu.cn (no path, query or credentials)',
        input: value,
      });
      return z.NEVER;
    });
}

/**
 * Free text, trimmed.
 *
 * @example
 * textSchema().parse(' gpt-5.4 '); // → 'gpt-5.4'
 */
export function textSchema(): z.ZodType<string, string> {
  return z.string().trim();
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/**
 * OTLP headers as `key=value` pairs separated by commas (the `OTEL_EXPORTER_OTLP_HEADERS` format).
 * Values are never echoed in errors: they are usually credentials.
 *
 * @example
 * otelHeadersSchema().parse('x-api-key=abc,x-team=core'); // → 'x-api-key=abc,x-team=core'
 */
export function otelHeadersSchema(): z.ZodType<string, string> {
  return z
    .string()
    .trim()
    .refine(
      (value) =>
        value.split(',').every((pair) => /^\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+\s*=.*$/.test(pair)),
      { error: 'expected key=value pairs separated by commas, e.g. x-api-key=…,x-team=core' },
    );
}
