import { describe, expect, it } from 'vitest';
import { fakeSecrets, pemBodyLines } from '../__fixtures__/fake-secrets.js';
import { capturePayload } from './payload-capture.js';
import { Redactor } from './redactor.js';
import { type SanitizeOptions, toTraceValue } from './sanitize.js';

const redactor = new Redactor((secret) => `h${secret.length}`);

// Speed goals are measured by the tracing-overhead benchmark, not here. A super-linear blow-up on
// a megabyte takes minutes, so the tests below catch one by finishing within this timeout at all.
const BLOW_UP_TIMEOUT_MS = 10_000;
const options: SanitizeOptions = { redactor, maxStringChars: 4000 };
const clean = (value: unknown) => JSON.stringify(toTraceValue(value, options));

function expectGone(value: unknown, ...secrets: string[]): string {
  const text = clean(value);
  for (const secret of secrets) expect(text).not.toContain(secret);
  expect(text).toContain('[REDACTED:');
  return text;
}

describe('redaction of adversarial inputs', () => {
  it('redacts an Authorization header and every spelling of an API key field', () => {
    const key = fakeSecrets.openai;
    expectGone({ Authorization: `Bearer ${key}` }, key);
    for (const field of [
      'authorization',
      'AUTHORIZATION',
      'x-api-key',
      'Api-Key',
      'apiKey',
      'API_KEY',
      'openaiApiKey',
    ]) {
      expect(clean({ [field]: 'plain-looking-value' }), field).not.toContain('plain-looking-value');
    }
  });

  it('redacts values under DATABASE_PASS, NPM_CONFIG__AUTH, *_PASSWD and *_CREDENTIALS, as keys and as assignments', () => {
    const names = [
      'DATABASE_PASS',
      'NPM_CONFIG__AUTH',
      'LDAP_PASSWD',
      'AZURE_CREDENTIALS',
      'db.pwd',
    ];
    for (const name of names) {
      expectGone({ env: { [name]: 'plain-looking-value' } }, 'plain-looking-value');
      expectGone(`${name}=plain-looking-value`, 'plain-looking-value');
    }
    const kept = { PWD: '/work', OLDPWD: '/tmp', max_tokens: 10, KEYBOARD: 'us' };
    expect(clean(kept)).toBe(JSON.stringify(kept));
  });

  it('redacts array-of-pairs headers nested deep', () => {
    expectGone(
      { a: [{ b: { headers: [['authorization', 'Bearer abc.def.ghi']] } }] },
      'abc.def.ghi',
    );
  });

  it('redacts a password inside a double-encoded JSON body', () => {
    expectGone({ body: JSON.stringify({ password: 'hunter2hunter2' }) }, 'hunter2hunter2');
    expectGone(
      { body: JSON.stringify({ body: JSON.stringify({ password: 'hunter3' }) }) },
      'hunter3',
    );
  });

  it('redacts an Anthropic key in the output of cat .env', () => {
    const output = `FOO=bar\nANTHROPIC_API_KEY=${fakeSecrets.anthropic}\n`;
    const text = expectGone(output, fakeSecrets.anthropic, fakeSecrets.anthropic.slice(0, 16));
    expect(text).toContain('FOO=bar');
  });

  it('redacts the bearer token of a curl command', () => {
    const text = expectGone(
      'curl -H "Authorization: Bearer abcdefghijklmnop" https://x',
      'abcdefghijklmnop',
    );
    expect(text).toContain('https://x');
  });

  it('redacts the password, token and signature of a URL', () => {
    const text = expectGone(
      'https://user:p%40ss@host/x?token=abc123&sig=zzz',
      'p%40ss',
      'abc123',
      'zzz',
    );
    expect(text).toContain('host/x');
  });

  it('redacts AWS, GitHub, Slack, GCP, JWT and multi-line PEM values', () => {
    const values = [
      fakeSecrets.awsAccessKeyId,
      fakeSecrets.github,
      fakeSecrets.githubPat,
      fakeSecrets.slack,
      fakeSecrets.gcp,
      fakeSecrets.jwt,
      fakeSecrets.openaiLegacy,
    ];
    for (const value of values) expectGone(`value: ${value} end`, value);
    expectGone(`key file:\n${fakeSecrets.pem}\nafter`, ...pemBodyLines);
  });

  it('redacts a PEM block cut before its END line', () => {
    const cut = fakeSecrets.pem.split('\n').slice(0, 3).join('\n');
    expectGone(cut, ...pemBodyLines.slice(0, 2));
  });

  it('redacts an AWS secret access key by context and by entropy', () => {
    expectGone(`aws_secret_access_key = ${fakeSecrets.awsSecretKey}`, fakeSecrets.awsSecretKey);
    expectGone(`secret is ${fakeSecrets.awsSecretKey} here`, fakeSecrets.awsSecretKey);
  });

  it('redacts Feishu tokens, secrets and signatures', () => {
    expectGone('Authorization: Bearer t-g1044abcdefghijklmnop', 't-g1044abcdefghijklmnop');
    expectGone('Bearer u-abcdefghijklmnop', 'u-abcdefghijklmnop');
    expectGone({ app_secret: 'feishu-app-secret-value' }, 'feishu-app-secret-value');
    expectGone({ encrypt_key: 'feishu-encrypt-key' }, 'feishu-encrypt-key');
    expectGone({ headers: { 'X-Lark-Signature': 'sig-value-123' } }, 'sig-value-123');
  });

  it('redacts a key that arrived split across two stream deltas once assembled', () => {
    const key = fakeSecrets.anthropic;
    const deltas = [key.slice(0, 10), key.slice(10)];
    expectGone({ content: deltas.join('') }, key.slice(10));
  });

  it('redacts a hex token in password context and a bare high-entropy base64 secret', () => {
    const hex = 'a3f9c2e81b7d4f6a9c0e5b2d8f1a7c3e9b4d6f20';
    expectGone(`password=${hex}`, hex);
    const b64 = Buffer.from(fakeSecrets.awsSecretKey + fakeSecrets.github).toString('base64');
    expectGone(`blob ${b64}`, b64);
  });

  it('leaves tokenizer, keyboard, passwordless_login, git SHAs, UUIDs and paths alone', () => {
    const benign = [
      'tokenizer=bert',
      'keyboard layout',
      'passwordless_login=true',
      'commit 3f5e7f815c2a9d1b6e4f0a8c7b3d2e1f0a9b8c7d',
      'id 123e4567-e89b-12d3-a456-426614174000',
      'ID 123E4567-E89B-12D3-A456-426614174000',
      'max_tokens: 4000',
      'input_tokens=829',
      'src/components/ButtonGroup/ButtonGroupItem2.tsx',
      'packages/tracing/src/capture/redaction-removes-secrets-by-key-and-by-value.test.ts',
      'getUserAccountSettingsFromDatabaseV2',
      'AbstractSingletonProxyFactoryBean2Impl',
      'The task-management overview',
      'const token = undefined',
    ];
    for (const text of benign) expect(clean(text), text).toBe(JSON.stringify(text));
    expect(clean({ tokenizer: 'bert', max_tokens: 10, passwordless_login: true })).toBe(
      JSON.stringify({ tokenizer: 'bert', max_tokens: 10, passwordless_login: true }),
    );
  });

  it('survives cycles, a 10 MB string, a throwing getter and an Error', {
    timeout: BLOW_UP_TIMEOUT_MS,
  }, () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(clean(cyclic)).toBe(JSON.stringify({ name: 'loop', self: '[circular]' }));

    const huge = `${'z'.repeat(10 * 2 ** 20)} ${fakeSecrets.github}`;
    const cut = toTraceValue(huge, options) as string;
    expect(cut.length).toBe(4000);

    const withGetter = Object.defineProperty({ ok: 1 }, 'bad', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(clean(withGetter)).toBe(JSON.stringify({ ok: 1, bad: '[unreadable]' }));

    expectGone(new Error('token=abc'), 'abc');
  });

  it('scans 1 MB of adversarial text without a super-linear blow-up', {
    timeout: BLOW_UP_TIMEOUT_MS,
  }, () => {
    const big = { maxStringChars: 2 ** 20, redactor };
    for (const text of [
      'a.'.repeat(2 ** 19),
      'x'.repeat(2 ** 20),
      'Bearer '.repeat(2 ** 20 / 7),
      `${'-----BEGIN PRIVATE KEY-----'.repeat(100)}${'Q'.repeat(2 ** 20 - 2700)}`,
      'password='.repeat(2 ** 20 / 9),
      'https://'.repeat(2 ** 20 / 8),
      'a='.repeat(2 ** 19),
      'key1: '.repeat(2 ** 20 / 6),
      '?key1='.repeat(2 ** 20 / 6),
      `${'k'.repeat(70)}=`.repeat(2 ** 20 / 71),
    ]) {
      expect(typeof toTraceValue(text, big), text.slice(0, 20)).toBe('string');
    }
  });

  it('metadata capture keeps only a keyed hash and sizes of a command with a key', () => {
    const command = `export OPENAI_API_KEY=${fakeSecrets.openai}`;
    const attributes = capturePayload(
      'tool_arguments',
      { command },
      { mode: 'metadata', salt: Buffer.alloc(32, 7), sanitize: options },
    );
    expect(Object.keys(attributes).sort()).toEqual([
      'tool_arguments_chars',
      'tool_arguments_hash',
      'tool_arguments_keys',
    ]);
    expect(JSON.stringify(attributes)).not.toContain('sk-');
  });

  it('redacts a provider SDK error that echoes request headers', () => {
    const error = new Error(
      `401 Unauthorized; request headers: {"authorization":"Bearer ${fakeSecrets.openai}","x-api-key":"${fakeSecrets.anthropic}"}`,
    );
    expectGone({ error }, fakeSecrets.openai, fakeSecrets.anthropic);
  });

  it('gives equal secrets equal markers, so they stay correlatable', () => {
    const keyed = new Redactor((secret) => secret.slice(-4));
    const text = keyed.redactText(`a ${fakeSecrets.github} b ${fakeSecrets.github}`);
    const markers = text.match(/\[REDACTED:[^\]]+\]/g) ?? [];
    expect(markers).toHaveLength(2);
    expect(markers[0]).toBe(markers[1]);
  });
});
