import { describe, expect, it } from 'vitest';
import { applySecretRules, secretRules, shannonEntropy } from './secret-rules.js';

// Secret-shaped values are assembled at run time so that no credential-like literal sits in the
// repository for scanners to flag.
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const spread = (length: number, step: number, alphabet = ALNUM): string =>
  Array.from({ length }, (_, i) => alphabet[(i * step + 3) % alphabet.length]).join('');

// Markers in the shape the tracer writes; the protect pattern keeps later rules off them.
const MARKER = /\[REDACTED:[^\]\s]{0,80}\]/;
const mark = (text: string): string =>
  applySecretRules(text, secretRules, (rule) => `[REDACTED:${rule}]`, MARKER);

describe('secretRules', () => {
  it.each([
    [
      'private-key',
      `-----BEGIN ${'RSA PRIVATE'} KEY-----\n${spread(64, 7)}\n-----END ${'RSA PRIVATE'} KEY-----`,
    ],
    ['anthropic-api-key', `sk-${'ant'}-api03-${spread(40, 7)}`],
    ['openai-api-key', `sk-${'proj'}-${spread(40, 11)}`],
    ['github-token', `gh${'p'}_${spread(36, 7)}`],
    ['github-pat', `github${'_pat'}_${spread(40, 7)}`],
    ['aws-access-key-id', `AK${'IA'}${spread(16, 5, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`],
    ['aws-access-key-id', `AK${'IA'}${spread(16, 5, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`],
    ['gitlab-token', `gl${'pat'}-${spread(20, 7)}`],
    ['huggingface-token', `h${'f'}_${spread(34, 7)}`],
    ['npm-token', `np${'m'}_${spread(36, 7)}`],
    ['pypi-token', `py${'pi'}-AgEIcHlwaS5vcmc${spread(60, 7)}`],
    ['groq-api-key', `gs${'k'}_${spread(52, 7)}`],
    ['xai-api-key', `xa${'i'}-${spread(80, 7)}`],
    ['sendgrid-api-key', `S${'G'}.${spread(22, 7)}.${spread(43, 11)}`],
    ['google-oauth-token', `ya${'29'}.${spread(60, 7)}`],
    ['slack-token', `xo${'xb'}-${spread(12, 1, '0123456789')}-${spread(24, 7)}`],
    ['gcp-api-key', `AI${'za'}${spread(35, 7)}`],
    ['jwt', `ey${'J'}${spread(30, 7)}.ey${'J'}${spread(30, 11)}.${spread(30, 13)}`],
  ])('recognises a %s by its shape', (rule, value) => {
    const out = mark(`before ${value} after`);
    expect(out).toBe(`before [REDACTED:${rule}] after`);
  });

  it('keeps the context words and redacts only the secret of a header or an assignment', () => {
    expect(mark('Authorization: Bearer abcdefghijklmnop')).toBe(
      'Authorization: Bearer [REDACTED:authorization-header]',
    );
    expect(mark('curl -H "x: Bearer abcdefghijklmnop"')).toBe(
      'curl -H "x: Bearer [REDACTED:bearer-token]"',
    );
    expect(mark('password=hunter2')).toBe('password=[REDACTED:keyword-assignment]');
    expect(mark('AccountName=x;AccountKey=abc123def456')).toBe(
      'AccountName=x;AccountKey=[REDACTED:keyword-assignment]',
    );
    expect(mark('https://user:p%40ss@host/x?token=abc123&sig=zzz')).toBe(
      'https://user:[REDACTED:url-credentials]@host/x?token=[REDACTED:url-query-secret]&sig=[REDACTED:url-query-secret]',
    );
  });

  it('redacts a bare token only when it looks random', () => {
    const random = spread(40, 17, `${ALNUM}+/`);
    expect(shannonEntropy(random)).toBeGreaterThanOrEqual(4.5);
    expect(mark(`blob ${random} end`)).toBe('blob [REDACTED:high-entropy] end');
    for (const benign of [
      'commit 3f5e7f815c2a9d1b6e4f0a8c7b3d2e1f0a9b8c7d',
      'id 123e4567-e89b-12d3-a456-426614174000',
      'src/components/ButtonGroup/ButtonGroupItem2.tsx',
      'getUserAccountSettingsFromDatabaseV2',
      'tokenizer=bert max_tokens: 4000 passwordless_login=true',
      'const token = undefined',
    ]) {
      expect(mark(benign), benign).toBe(benign);
    }
  });

  it('leaves what a protect pattern matches alone, so markers are not redacted again', () => {
    const text = 'token: [REDACTED:github-token:ab12]';
    expect(applySecretRules(text, secretRules, () => 'X', MARKER)).toBe(text);
  });

  it('shannonEntropy counts bits per character', () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});
