import { describe, expect, it } from 'vitest';
import { maskSecret, redactUrlCredentials } from './mask-secret.js';

describe('maskSecret', () => {
  it('keeps the first 3 and last 4 characters of a long secret', () => {
    expect(maskSecret('sk-proj-0123456789abcdefabcd')).toBe('sk-…abcd');
  });

  it('hides a short secret completely', () => {
    expect(maskSecret('abc')).toBe('****');
    expect(maskSecret('0123456789012345678')).toBe('****');
    expect(maskSecret('01234567890123456789')).toBe('012…6789');
  });

  it('shows a missing secret as (unset)', () => {
    expect(maskSecret(undefined)).toBe('(unset)');
    expect(maskSecret('')).toBe('(unset)');
  });
});

describe('redactUrlCredentials', () => {
  it('replaces user and password in a URL', () => {
    expect(redactUrlCredentials('https://me:hunter2@proxy.local/v1')).toBe(
      'https://***@proxy.local/v1',
    );
    expect(redactUrlCredentials('http://token@host')).toBe('http://***@host');
  });

  it('leaves URLs without credentials and plain text alone', () => {
    expect(redactUrlCredentials('https://api.openai.com/v1?x=a@b')).toBe(
      'https://api.openai.com/v1?x=a@b',
    );
    expect(redactUrlCredentials('me@example.com')).toBe('me@example.com');
  });
});
