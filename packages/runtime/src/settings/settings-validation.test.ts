import { ConfigurationError } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { loadSettings } from './load-settings.js';
import { InvalidSettingsError, invalidValueLine } from './settings-error.js';

function problemsFor(
  env: Record<string, string | undefined>,
  dotenv?: Record<string, string>,
): readonly string[] {
  try {
    loadSettings({ env, cwd: '/w', homeDir: '/h', ...(dotenv === undefined ? {} : { dotenv }) });
  } catch (error) {
    if (error instanceof InvalidSettingsError) {
      expect(error.message.split('\n')).toEqual(error.problems);
      return error.problems;
    }
    throw error;
  }
  throw new Error('expected loadSettings to throw');
}

const TOOLS = 'expected a comma-separated list of: bash, edit, explore, read, write';

const invalidValues: ReadonlyArray<readonly [string, string, string]> = [
  ['TINY_CLAW_MAX_TOKENS', 'abc', 'expected an integer from 1 to 1000000'],
  ['TINY_CLAW_MAX_TOKENS', '1.5', 'expected an integer from 1 to 1000000'],
  ['TINY_CLAW_MAX_TOKENS', '1e3', 'expected an integer from 1 to 1000000'],
  ['TINY_CLAW_MAX_TOKENS', '-1', 'expected an integer from 1 to 1000000'],
  ['TINY_CLAW_MAX_TOKENS', '0', 'expected an integer from 1 to 1000000'],
  ['TINY_CLAW_MAX_TOKENS', '1000001', 'expected an integer from 1 to 1000000'],
  ['TINY_CLAW_MAX_TOKENS', '0x10', 'expected an integer from 1 to 1000000'],
  ['TINY_CLAW_PROVIDER', 'gpt', 'expected one of: auto, openai, claude, anthropic, echo, scripted'],
  ['TINY_CLAW_APPROVAL_PROVIDER', 'slack', 'expected one of: auto, off, cli, feishu'],
  ['TINY_CLAW_APPROVAL_TIMEOUT_SECONDS', '0', 'expected an integer of at least 1'],
  ['TINY_CLAW_APPROVAL_TIMEOUT_SECONDS', '1h', 'expected an integer of at least 1'],
  ['TINY_CLAW_TRACE_MODE', 'full', 'expected one of: off, metadata, replay'],
  ['TINY_CLAW_TRACE_MAX_PAYLOAD_CHARS', '0', 'expected an integer of at least 1'],
  ['TINY_CLAW_LOG_LEVEL', 'verbose', 'expected one of: debug, info, warn, error'],
  ['TINY_CLAW_LOG_FORMAT', 'logfmt', 'expected one of: text, json'],
  ['TINY_CLAW_SERVER_PORT', '0', 'expected an integer from 1 to 65535'],
  ['TINY_CLAW_SERVER_PORT', '65536', 'expected an integer from 1 to 65535'],
  ['TINY_CLAW_SERVER_PORT', 'http', 'expected an integer from 1 to 65535'],
  ['TINY_CLAW_SERVER_HOST', 'http://localhost', 'expected a host name or IP address'],
  ['TINY_CLAW_SERVER_HOST', 'my host', 'expected a host name or IP address'],
  ['TINY_CLAW_CONTEXT_MAX_CHARS', '999', 'expected an integer of at least 1000'],
  ['TINY_CLAW_CONTEXT_RETAIN_LAST_MESSAGES', '0', 'expected an integer of at least 1'],
  ['TINY_CLAW_STATE_POOL_SIZE', '1', 'expected an integer from 2 to 1000'],
  ['TINY_CLAW_STATE_POOL_SIZE', '1001', 'expected an integer from 2 to 1000'],
  ['TINY_CLAW_STATE_POOL_SIZE', 'ten', 'expected an integer from 2 to 1000'],
  ['TINY_CLAW_CHAT_LEASE_SECONDS', '0', 'expected an integer from 1 to 3600'],
  ['TINY_CLAW_CHAT_LEASE_SECONDS', '3601', 'expected an integer from 1 to 3600'],
  ['TINY_CLAW_CHAT_LEASE_SECONDS', '1.5', 'expected an integer from 1 to 3600'],
  ['TINY_CLAW_MAX_PARALLEL_TOOLS', '0', 'expected an integer from 1 to 64'],
  ['TINY_CLAW_MAX_PARALLEL_TOOLS', '65', 'expected an integer from 1 to 64'],
  ['TINY_CLAW_ENABLED_TOOLS', 'read,foo', `unknown tool "foo"; ${TOOLS}`],
  ['TINY_CLAW_TOOL_ALLOWLIST', 'grep', `unknown tool "grep"; ${TOOLS}`],
  ['TINY_CLAW_TOOL_DENYLIST', 'Bash,rm,RM,sudo', `unknown tools "rm", "sudo"; ${TOOLS}`],
  ['TINY_CLAW_APPROVAL_REQUIRED_TOOLS', 'shell', `unknown tool "shell"; ${TOOLS}`],
  ['TINY_CLAW_TOOL_DENYLIST', 'bahs', `unknown tool "bahs" (did you mean "bash"?); ${TOOLS}`],
  ['TINY_CLAW_TOOL_ALLOWLIST', 'Raed', `unknown tool "raed" (did you mean "read"?); ${TOOLS}`],
  [
    'TINY_CLAW_ENABLED_TOOLS',
    'read,wirte',
    `unknown tool "wirte" (did you mean "write"?); ${TOOLS}`,
  ],
  ['TINY_CLAW_TOOL_DENYLIST', 'bash,,edt', `unknown tool "edt" (did you mean "edit"?); ${TOOLS}`],
  ['OPENAI_BASE_URL', 'api.openai.com/v1', 'expected an absolute http:// or https:// URL'],
  ['OPENAI_BASE_URL', 'ftp://files.local', 'expected an absolute http:// or https:// URL'],
  ['TINY_CLAW_OPENAI_BASE_URL', 'not a url', 'expected an absolute http:// or https:// URL'],
  ['ANTHROPIC_BASE_URL', 'file:///etc/passwd', 'expected an absolute http:// or https:// URL'],
  ['FEISHU_EVENT_PATH', 'api/events', 'expected a URL path that starts with "/"'],
  ['FEISHU_APPROVERS', 'ou_a ou_b', 'expected a comma-separated list of Feishu open ids'],
  ['FEISHU_MODE', 'socket', 'expected one of: webhook, ws'],
  ['FEISHU_DOMAIN', 'open.feishu.cn', 'expected feishu, lark, or an http(s) base URL'],
  [
    'FEISHU_DOMAIN',
    'https://open.feishu.cn/open-apis',
    'expected feishu, lark, or an http(s) base URL',
  ],
  ['TINY_CLAW_STATE_DIR', 'state\0dir', 'expected a file system path without NUL characters'],
];

describe('loadSettings rejects invalid values', () => {
  it.each(invalidValues)(
    'rejects %s=%j naming the variable, the value and what is accepted',
    (name, value, expected) => {
      const problems = problemsFor({ [name]: value });
      expect(problems).toHaveLength(1);
      const line = problems[0] ?? '';
      expect(
        line.startsWith(`${name}=${JSON.stringify(value)} is invalid: ${expected}`),
        line,
      ).toBe(true);
      expect(line.endsWith('.')).toBe(true);
    },
  );

  it('reports TINY_CLAW_MAX_TOKENS=abc in exactly the documented words', () => {
    expect(problemsFor({ TINY_CLAW_MAX_TOKENS: 'abc' })).toEqual([
      'TINY_CLAW_MAX_TOKENS="abc" is invalid: expected an integer from 1 to 1000000.',
    ]);
  });

  it('reports an unknown enabled tool in exactly the documented words', () => {
    expect(problemsFor({ TINY_CLAW_ENABLED_TOOLS: 'read,foo' })).toEqual([
      'TINY_CLAW_ENABLED_TOOLS="read,foo" is invalid: unknown tool "foo"; expected a comma-separated list of: bash, edit, explore, read, write.',
    ]);
  });

  it('throws one ConfigurationError with exit code 78 listing every problem, one per line', () => {
    let caught: unknown;
    try {
      loadSettings({
        env: {
          TINY_CLAW_MAX_TOKENS: 'abc',
          TINY_CLAW_ENABLED_TOOLS: 'read,foo',
          TINY_CLAW_SERVER_PORT: '99999',
          OPENAI_BASE_URL: 'localhost:1234',
        },
        dotenv: { TINY_CLAW_TRACE_MODE: 'verbose' },
        cwd: '/w',
        homeDir: '/h',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigurationError);
    expect((caught as ConfigurationError).code).toBe('configuration');
    const lines = (caught as Error).message.split('\n');
    expect(lines).toHaveLength(5);
    expect(lines.map((line) => line.split('=')[0])).toEqual([
      'TINY_CLAW_MAX_TOKENS',
      'TINY_CLAW_ENABLED_TOOLS',
      'TINY_CLAW_TRACE_MODE',
      'TINY_CLAW_SERVER_PORT',
      'OPENAI_BASE_URL',
    ]);
  });

  it('reports a bad value that came from .env', () => {
    expect(problemsFor({}, { TINY_CLAW_LOG_LEVEL: 'loud' })[0]).toMatch(
      /^TINY_CLAW_LOG_LEVEL="loud" is invalid/,
    );
  });

  it('names the alias that held a bad base URL', () => {
    expect(problemsFor({ TINY_CLAW_OPENAI_BASE_URL: 'x' })[0]).toMatch(
      /^TINY_CLAW_OPENAI_BASE_URL="x" is invalid/,
    );
  });

  it('hides credentials of a rejected URL', () => {
    const [line] = problemsFor({ OPENAI_BASE_URL: 'ftp://user:hunter2@files.local' });
    expect(line).toContain('"ftp://***@files.local"');
    expect(line).not.toContain('hunter2');
  });
});

describe('TINY_CLAW_PROVIDER=scripted', () => {
  it('requires TINY_CLAW_SCRIPT', () => {
    expect(problemsFor({ TINY_CLAW_PROVIDER: 'scripted' })).toEqual([
      'TINY_CLAW_SCRIPT is required when TINY_CLAW_PROVIDER=scripted: set it to the path of a JSON script file.',
    ]);
  });

  it('reports a missing script together with other problems', () => {
    const problems = problemsFor({ TINY_CLAW_PROVIDER: 'Scripted', TINY_CLAW_MAX_TOKENS: '0' });
    expect(problems).toHaveLength(2);
    expect(problems[1]).toMatch(/^TINY_CLAW_SCRIPT is required/);
  });

  it('does not ask for a script when the script is set but invalid', () => {
    const problems = problemsFor({ TINY_CLAW_PROVIDER: 'scripted', TINY_CLAW_SCRIPT: 'a\0b' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^TINY_CLAW_SCRIPT="a\\u0000b" is invalid/);
  });
});

describe('invalidValueLine', () => {
  it('masks a secret value', () => {
    const key = 'sk-proj-0123456789abcdefghijXYZW';
    const line = invalidValueLine('OPENAI_API_KEY', key, 'expected something', true);
    expect(line).toBe('OPENAI_API_KEY="sk-…XYZW" is invalid: expected something.');
    expect(line).not.toContain(key);
  });

  it('quotes the value with JSON.stringify', () => {
    expect(invalidValueLine('A', 'say "hi"\n', 'expected x', false)).toBe(
      'A="say \\"hi\\"\\n" is invalid: expected x.',
    );
  });
});

describe('OpenTelemetry settings', () => {
  it('accepts an http(s) endpoint and key=value headers, rejecting malformed ones without echoing them', async () => {
    const { loadSettings } = await import('./load-settings.js');
    const base = { cwd: '/w', homeDir: '/h' };
    const ok = loadSettings({
      ...base,
      env: {
        TINY_CLAW_OTEL_ENDPOINT: 'http://127.0.0.1:4318',
        TINY_CLAW_OTEL_HEADERS: 'x-api-key=abc123secret,x-team=core',
      },
    });
    expect(ok.otelEndpoint).toBe('http://127.0.0.1:4318');
    expect(() =>
      loadSettings({ ...base, env: { TINY_CLAW_OTEL_ENDPOINT: 'collector:4318' } }),
    ).toThrow(/TINY_CLAW_OTEL_ENDPOINT/);
    let message = '';
    try {
      loadSettings({
        ...base,
        env: { TINY_CLAW_OTEL_HEADERS: 'x-api-key: supersecretvalue123456' },
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('TINY_CLAW_OTEL_HEADERS');
    expect(message).not.toContain('supersecretvalue123456');
  });
});

describe('PostgreSQL state settings', () => {
  const base = { cwd: '/w', homeDir: '/h' };

  it('keeps state in files when TINY_CLAW_STATE_URL is unset, with a pool of 10 by default', () => {
    const settings = loadSettings({ ...base, env: {} });
    expect(settings.stateUrl).toBeUndefined();
    expect(settings.statePoolSize).toBe(10);
    expect(settings.chatLeaseSeconds).toBe(30);
  });

  it.each([
    'postgres://claw@db:5432/claw',
    'postgresql://claw:secret@db/claw?sslmode=verify-full&sslrootcert=/etc/ca.pem',
    'POSTGRES://db',
  ])('accepts the PostgreSQL URL %j', (url) => {
    expect(
      loadSettings({ ...base, env: { TINY_CLAW_STATE_URL: url, TINY_CLAW_STATE_POOL_SIZE: '25' } }),
    ).toMatchObject({ stateUrl: url, statePoolSize: 25 });
  });

  it.each([
    'mysql://claw:secret@db/claw',
    'http://claw:secret@db/claw',
    'postgres://',
    '/var/run/postgresql',
    'postgres://claw:secret@db/claw with spaces',
  ])('refuses %j naming the setting, without showing the password', (url) => {
    const problems = problemsFor({ TINY_CLAW_STATE_URL: url });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^TINY_CLAW_STATE_URL=".*" is invalid: expected a postgres:\/\/ or postgresql:\/\/ URL/,
    );
    expect(problems[0]).not.toContain('secret');
  });
});
