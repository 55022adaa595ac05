import { describe, expect, it } from 'vitest';
import { describeSettings } from './describe-settings.js';
import { loadSettings } from './load-settings.js';
import { SETTING_VARIABLES } from './setting-variables.js';

const OPENAI_KEY = 'sk-proj-AAAAbbbbCCCCddddEEEEffff1234';
const ANTHROPIC_KEY = 'sk-ant-api03-ZZZZyyyyXXXXwwww9876';
const APP_SECRET = 'feishu-app-secret-0123456789abcdef';
const TOKEN = 'verification-token-0123456789';
const ENCRYPT_KEY = 'encrypt-key-abcdefghijklmnop';

function rowsFor(env: Record<string, string>, dotenv?: Record<string, string>) {
  const settings = loadSettings({
    env,
    cwd: '/w',
    homeDir: '/h',
    ...(dotenv === undefined ? {} : { dotenv }),
  });
  return describeSettings(settings);
}

describe('describeSettings', () => {
  it('has one row per variable, in table order', () => {
    const rows = rowsFor({});
    expect(rows.map((row) => row.name)).toEqual(
      Object.values(SETTING_VARIABLES).map((variable) => variable.name),
    );
  });

  it('shows defaults with source "default" and unset values as (unset)', () => {
    const rows = rowsFor({});
    expect(rows).toContainEqual({ name: 'TINY_CLAW_MAX_TOKENS', value: '4096', source: 'default' });
    expect(rows).toContainEqual({ name: 'TINY_CLAW_MODEL', value: '(unset)', source: 'default' });
    expect(rows).toContainEqual({ name: 'OPENAI_API_KEY', value: '(unset)', source: 'default' });
    expect(rows).toContainEqual({
      name: 'TINY_CLAW_STATE_DIR',
      value: '/h/.tiny-claw',
      source: 'default',
    });
    expect(rows).toContainEqual({
      name: 'TINY_CLAW_ENABLED_TOOLS',
      value: 'read',
      source: 'default',
    });
  });

  it('tells env from .env values', () => {
    const rows = rowsFor({ TINY_CLAW_MODEL: 'm1' }, { TINY_CLAW_TRACE_MODE: 'replay' });
    expect(rows).toContainEqual({ name: 'TINY_CLAW_MODEL', value: 'm1', source: 'env' });
    expect(rows).toContainEqual({ name: 'TINY_CLAW_TRACE_MODE', value: 'replay', source: '.env' });
  });

  it('shows an empty tool list as (none)', () => {
    expect(rowsFor({ TINY_CLAW_ENABLED_TOOLS: '' })).toContainEqual({
      name: 'TINY_CLAW_ENABLED_TOOLS',
      value: '(none)',
      source: 'env',
    });
  });

  it('names the alias a value came from', () => {
    const rows = rowsFor({ CLAUDE_API_KEY: ANTHROPIC_KEY }, { LARK_APP_ID: 'cli_1' });
    expect(rows).toContainEqual({ name: 'CLAUDE_API_KEY', value: 'sk-…9876', source: 'env' });
    expect(rows).toContainEqual({ name: 'LARK_APP_ID', value: 'cli_1', source: '.env' });
  });

  it('masks every secret so no full key appears anywhere in the output', () => {
    const rows = rowsFor({
      OPENAI_API_KEY: OPENAI_KEY,
      ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      FEISHU_APP_SECRET: APP_SECRET,
      FEISHU_VERIFICATION_TOKEN: TOKEN,
      FEISHU_ENCRYPT_KEY: 'short-key',
    });
    const output = JSON.stringify(rows);
    for (const secret of [OPENAI_KEY, ANTHROPIC_KEY, APP_SECRET, TOKEN, 'short-key']) {
      expect(output).not.toContain(secret);
    }
    expect(rows).toContainEqual({ name: 'OPENAI_API_KEY', value: 'sk-…1234', source: 'env' });
    expect(rows).toContainEqual({ name: 'FEISHU_ENCRYPT_KEY', value: '****', source: 'env' });
    expect(rows).toContainEqual({ name: 'FEISHU_APP_SECRET', value: 'fei…cdef', source: 'env' });
  });

  it('masks a secret that came from .env as well', () => {
    const output = JSON.stringify(rowsFor({}, { FEISHU_ENCRYPT_KEY: ENCRYPT_KEY }));
    expect(output).not.toContain(ENCRYPT_KEY);
  });

  it('hides credentials embedded in a base URL', () => {
    const rows = rowsFor({ OPENAI_BASE_URL: 'https://me:hunter2@proxy.local/v1' });
    expect(rows).toContainEqual({
      name: 'OPENAI_BASE_URL',
      value: 'https://***@proxy.local/v1',
      source: 'env',
    });
    expect(JSON.stringify(rows)).not.toContain('hunter2');
  });

  it('hides the query values of a base URL, where some proxies take the key', () => {
    const rows = rowsFor({
      OPENAI_BASE_URL: 'http://h/v1?api_key=abc123',
      TINY_CLAW_OTEL_ENDPOINT: 'https://otel.local/?token=zzz',
    });
    expect(rows).toContainEqual({
      name: 'OPENAI_BASE_URL',
      value: 'http://h/v1?api_key=***',
      source: 'env',
    });
    expect(JSON.stringify(rows)).not.toMatch(/abc123|zzz/);
  });

  it('names the kind of file each value came from', () => {
    const settings = loadSettings({
      env: { TINY_CLAW_MODEL: 'from-env' },
      cwd: '/w',
      homeDir: '/h',
      files: [
        { source: 'env-file', path: '/x/explicit.env', values: { TINY_CLAW_MAX_TOKENS: '11' } },
        {
          source: 'user config',
          path: '/h/.config/tiny-claw/.env',
          values: { TINY_CLAW_TRACE_MODE: 'off' },
        },
        { source: '.env', path: '/w/.env', values: { TINY_CLAW_STREAM: 'off' } },
      ],
    });
    const rows = describeSettings(settings);
    expect(rows).toContainEqual({ name: 'TINY_CLAW_MODEL', value: 'from-env', source: 'env' });
    expect(rows).toContainEqual({ name: 'TINY_CLAW_MAX_TOKENS', value: '11', source: 'env-file' });
    expect(rows).toContainEqual({
      name: 'TINY_CLAW_TRACE_MODE',
      value: 'off',
      source: 'user config',
    });
    expect(rows).toContainEqual({ name: 'TINY_CLAW_STREAM', value: 'off', source: '.env' });
  });
});
