import { describe, expect, it } from 'vitest';
import { fakeSecrets } from '../__fixtures__/fake-secrets.js';
import { Redactor } from './redactor.js';
import { ATTRIBUTE_MAX_CHARS, sanitizeAttributes, truncateText } from './sanitize.js';

const options = { redactor: new Redactor(() => 'fp'), maxStringChars: ATTRIBUTE_MAX_CHARS };

describe('attribute sanitising', () => {
  it('drops null and undefined values', () => {
    expect(sanitizeAttributes({ a: 1, b: null, c: undefined, d: false }, options)).toEqual({
      a: 1,
      d: false,
    });
  });

  it('truncates long strings with the original marker and the original length', () => {
    const long = 'a'.repeat(5000);
    const stored = sanitizeAttributes({ long }, options).long as string;
    expect(stored).toHaveLength(ATTRIBUTE_MAX_CHARS);
    expect(stored.endsWith('...[truncated 5000 chars]...')).toBe(true);
    expect(truncateText('short', 10)).toBe('short');
  });

  it('never redacts top-level keys by name but always redacts values', () => {
    const stored = sanitizeAttributes(
      {
        session_key: 'cli-000000000000-default',
        input_tokens: 829,
        error: `401 with Bearer ${fakeSecrets.openai}`,
      },
      options,
    );
    expect(stored.session_key).toBe('cli-000000000000-default');
    expect(stored.input_tokens).toBe(829);
    expect(stored.error).toBe('401 with Bearer [REDACTED:openai-api-key:fp]');
  });

  it('turns non-finite numbers into strings so the file stays JSON', () => {
    expect(sanitizeAttributes({ n: Number.NaN, i: Number.POSITIVE_INFINITY }, options)).toEqual({
      n: 'NaN',
      i: 'Infinity',
    });
  });
});
