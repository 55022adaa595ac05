import { describe, expect, it } from 'vitest';
import { REDACTED, scrubSecrets } from './scrub-secrets.js';

describe('scrubSecrets', () => {
  it('removes Anthropic and OpenAI style keys', () => {
    const out = scrubSecrets('keys sk-ant-api03-AbC_d-123 and sk-proj-XYZ987654 end', []);
    expect(out).toBe(`keys ${REDACTED} and ${REDACTED} end`);
  });

  it('removes bearer credentials and api_key pairs', () => {
    expect(scrubSecrets('Authorization: Bearer abc.def', [])).not.toContain('abc.def');
    expect(scrubSecrets('{"api_key":"hunter2hunter2"}', [])).not.toContain('hunter2');
  });

  it('removes the configured key and any visible fragment of it', () => {
    const key = 'proxy-key-7f3a9c21e4';
    expect(scrubSecrets(`invalid key ${key}`, [key])).toBe(`invalid key ${REDACTED}`);
    expect(scrubSecrets('invalid key prox****c21e4', [key])).not.toMatch(/c21e4/);
    expect(scrubSecrets('key ending 9c21e4 rejected', [key])).toBe(
      `key ending ${REDACTED} rejected`,
    );
  });

  it('leaves ordinary text alone', () => {
    expect(scrubSecrets('prompt is too long: 209840 tokens > 200000 maximum', ['sk-ant-zzz'])).toBe(
      'prompt is too long: 209840 tokens > 200000 maximum',
    );
  });
});
