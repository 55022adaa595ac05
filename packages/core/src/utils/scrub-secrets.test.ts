import { describe, expect, it } from 'vitest';
import { REDACTED, scrubSecrets } from './scrub-secrets.js';

describe('scrubSecrets', () => {
  it('removes the known key and OpenAI- and Groq-style keys, masked or not', () => {
    const key = 'sk-proj-SECRETabcdefghijklmnop0123wxyz';
    const out = scrubSecrets(
      `Incorrect API key provided: sk-proj-SEC*************wxyz. Also ${key} and sk-or-v1-0123456789abcdef and gsk_ABCDEF123456.`,
      [key],
    );
    expect(out).toBe(
      'Incorrect API key provided: [redacted]. Also [redacted] and [redacted] and [redacted].',
    );
    expect(out).not.toMatch(/SEC|wxyz|0123|ABCDEF/);
  });

  it('removes Anthropic keys and short OpenAI-style keys', () => {
    const out = scrubSecrets('keys sk-ant-api03-AbC_d-123 and sk-proj-XYZ987654 end');
    expect(out).toBe(`keys ${REDACTED} and ${REDACTED} end`);
  });

  it('removes bearer tokens of any length, keeping the word Bearer', () => {
    expect(scrubSecrets('header Authorization: Bearer abc.def.ghi was bad')).toBe(
      'header Authorization: Bearer [redacted] was bad',
    );
    expect(scrubSecrets('upstream failed for Bearer abc')).toBe(
      'upstream failed for Bearer [redacted]',
    );
  });

  it('removes api_key=, x-api-key: and authorization: pairs, keeping the name', () => {
    expect(scrubSecrets('{"api_key":"hunter2hunter2"}')).toBe('{"api_key":"[redacted]"}');
    expect(scrubSecrets('x-api-key: abcdef123')).toBe('x-api-key: [redacted]');
    expect(scrubSecrets('authorization=Basic dXNlcjpwdw==')).not.toContain('dXNlcjpwdw');
  });

  it('removes every masked token', () => {
    expect(scrubSecrets('key ab12****yz89 rejected')).toBe('key [redacted] rejected');
  });

  it('removes the value rules’ shapes too: tokens, JWTs, URL credentials', () => {
    const github = `ghp_${'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG'}`;
    const out = scrubSecrets(`push failed for ${github} at https://user:hunter2@example.com/x`);
    expect(out).not.toContain(github.slice(4));
    expect(out).not.toContain('hunter2');
    expect(out).toContain('example.com/x');
  });

  it('removes the known key and any visible fragment of it, however it was cut', () => {
    const key = 'proxy-key-7f3a9c21e4';
    expect(scrubSecrets(`invalid key ${key}`, [key])).toBe(`invalid key ${REDACTED}`);
    expect(scrubSecrets('invalid key prox****c21e4', [key])).not.toMatch(/c21e4/);
    expect(scrubSecrets('key ending 9c21e4 rejected', [key])).toBe(
      `key ending ${REDACTED} rejected`,
    );
    expect(scrubSecrets('key …a9c2 rejected', [key])).toBe(`key …${REDACTED} rejected`);
  });

  it.each([
    ['FEISHU_APPROVERS', 'FEISHU-approvals-9f8e7d6c'],
    ['FEISHU_APPROVERS', 'team-APPROVERS-9f8e7d6c'],
    ['TINY_CLAW_APPROVAL_PROVIDER', 'PROVIDER-9f8e7d6c'],
    ['FEISHU_ENCRYPT_KEY', 'ENCRYPT-9f8e7d6c'],
  ])(
    'never takes a kept word such as %s for a fragment of the secret %s, and still removes the secret',
    (name, secret) => {
      const text = `set ${name} (now ${secret}), then ${secret.slice(-6)}`;
      expect(scrubSecrets(text, [secret], { keep: [name] })).toBe(
        `set ${name} (now ${REDACTED}), then ${REDACTED}`,
      );
      expect(scrubSecrets(text, [secret])).not.toContain(name);
    },
  );

  it('treats a placeholder key shorter than four characters as no secret', () => {
    expect(scrubSecrets('the kind of key', ['k'])).toBe('the kind of key');
  });

  it('leaves ordinary text alone', () => {
    for (const text of [
      'prompt is too long: 209840 tokens > 200000 maximum',
      'the task-runner is at risk-free skip',
      "Invalid 'max_tokens': integer below minimum value",
      'model: claude-sonnet-4-5 not found',
    ]) {
      expect(scrubSecrets(text, ['sk-ant-zzzz'])).toBe(text);
    }
  });
});
