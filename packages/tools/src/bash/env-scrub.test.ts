import { describe, expect, it } from 'vitest';
import { isSecretEnvVar, SCRUBBED_ENV_OVERRIDES, scrubEnvironment } from './env-scrub.js';

describe('scrubEnvironment', () => {
  it('drops provider keys, Feishu secrets and every name that looks like a credential', () => {
    const env = scrubEnvironment({
      PATH: '/usr/bin',
      HOME: '/home/me',
      OPENAI_API_KEY: 'sk-live',
      OPENAI_BASE_URL: 'https://proxy.example',
      ANTHROPIC_API_KEY: 'x',
      CLAUDE_CODE_OAUTH: 'x',
      FEISHU_APP_ID: 'cli_123',
      LARK_APP_ID: 'cli_456',
      TINY_CLAW_STATE_DIR: '/home/me/.tiny-claw',
      GITHUB_TOKEN: 'x',
      DB_PASSWORD: 'x',
      MYSQL_PASSWD: 'x',
      npm_config__authToken: 'x',
      GOOGLE_APPLICATION_CREDENTIALS: '/k.json',
      SSH_PRIVATE_KEY_PATH: '/k',
      AWS_SECRET_ACCESS_KEY: 'x',
    });
    expect(Object.keys(env).sort()).toEqual(
      ['GIT_PAGER', 'GIT_TERMINAL_PROMPT', 'HOME', 'PAGER', 'PATH'].sort(),
    );
  });

  it('keeps no TINY_CLAW_ variable at all', () => {
    const env = scrubEnvironment({ TINY_CLAW_PROVIDER: 'echo', tiny_claw_x: 'y', PATH: '/bin' });
    expect(Object.keys(env).filter((name) => name.toUpperCase().startsWith('TINY_CLAW_'))).toEqual(
      [],
    );
  });

  it('drops variables whose value is a credential whatever their name', () => {
    const env = scrubEnvironment({
      DATABASE_URL: 'postgres://user:hunter2@db:5432/app',
      GH: 'ghp_0123456789abcdefghij0123456789abcdef',
      LLM: 'sk-proj-abcdefghijklmnopqrstuvwxyz',
      AWS_ID: 'AKIAABCDEFGHIJKLMNOP',
      PEM: '-----BEGIN OPENSSH PRIVATE KEY-----\nabc',
      SLACK: 'xoxb-1234567890-abcdef',
      JWT: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig',
      PUBLIC_URL: 'https://example.com/path',
    });
    expect(Object.keys(env)).toEqual(['PUBLIC_URL', ...Object.keys(SCRUBBED_ENV_OVERRIDES)]);
  });

  it('drops extra names given exactly (any case) or as a prefix ending in *', () => {
    const env = scrubEnvironment({ MY_DB_URL: 'x', internal_a: '1', INTERNAL_B: '2', KEEP: 'k' }, [
      'my_db_url',
      'INTERNAL_*',
    ]);
    expect(env.KEEP).toBe('k');
    expect(env.MY_DB_URL).toBeUndefined();
    expect(env.internal_a).toBeUndefined();
    expect(env.INTERNAL_B).toBeUndefined();
  });

  it('forces PAGER=cat, GIT_PAGER=cat and GIT_TERMINAL_PROMPT=0 over inherited values', () => {
    const env = scrubEnvironment({ PAGER: 'less', GIT_PAGER: 'delta', GIT_TERMINAL_PROMPT: '1' });
    expect(env).toMatchObject({ PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' });
  });

  it('is pure: the source environment is not modified', () => {
    const source = { OPENAI_API_KEY: 'sk-x', PATH: '/bin' };
    const before = { ...source };
    const env = scrubEnvironment(source);
    expect(source).toEqual(before);
    expect(env).not.toBe(source);
  });

  it('skips undefined values', () => {
    expect(scrubEnvironment({ A: undefined, B: 'b' })).toEqual({
      B: 'b',
      ...SCRUBBED_ENV_OVERRIDES,
    });
  });
});

describe('isSecretEnvVar', () => {
  it.each([
    'DATABASE_PASS',
    'NPM_CONFIG__AUTH',
    'LDAP_PASSWD',
    'AZURE_CREDENTIAL',
    'SERVICE_CREDENTIALS',
    'MYSQL_PWD',
    'PGPASSWORD',
    'SENTRY_DSN',
    'SLACK_WEBHOOK_URL',
    'STRIPE_KEY',
    'SESSION_ID',
    'COOKIE_JAR_SECRET',
  ])('drops %s whatever its value', (name) => {
    expect(isSecretEnvVar(name, 'plain')).toBe(true);
  });

  it.each(['PWD', 'OLDPWD', 'KEYTIMEOUT', 'KEYBOARD', 'TOKENIZERS_PARALLELISM', 'LANG', 'TERM'])(
    'keeps %s, which names no secret',
    (name) => {
      expect(isSecretEnvVar(name, 'plain')).toBe(false);
    },
  );

  it('drops a URL with a user part, with or without a password', () => {
    expect(isSecretEnvVar('ERROR_REPORTING', 'https://k3y@o1.ingest.example.io/5')).toBe(true);
    expect(isSecretEnvVar('DATABASE_URL', 'postgres://app:pw@db/app')).toBe(true);
    expect(isSecretEnvVar('DATABASE_URL', 'postgres://db:5432/app')).toBe(false);
  });

  it('flags names and values, and leaves ordinary variables alone', () => {
    expect(isSecretEnvVar('OPENAI_API_KEY', 'x')).toBe(true);
    expect(isSecretEnvVar('LANG', 'C.UTF-8')).toBe(false);
    expect(isSecretEnvVar('HTTP_PROXY', 'http://u:p@proxy:3128')).toBe(true);
    expect(isSecretEnvVar('HTTP_PROXY', 'http://proxy:3128')).toBe(false);
  });
});
