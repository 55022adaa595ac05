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

  it('hides the userinfo up to the last @ of the authority, so a password holding @ stays hidden', () => {
    expect(redactUrlCredentials('http://user:p@ss@host/x')).toBe('http://***@host/x');
  });

  it('hides the value of every query parameter and keeps the names', () => {
    expect(redactUrlCredentials('http://h/v1?api_key=abc')).toBe('http://h/v1?api_key=***');
    expect(redactUrlCredentials('https://api.openai.com/v1?x=a@b&key=sk-1;t=2')).toBe(
      'https://api.openai.com/v1?x=***&key=***;t=***',
    );
  });

  it('hides a bare query value and fragment parameters, which can be tokens too', () => {
    expect(redactUrlCredentials('http://h/v1?sk-secret')).toBe('http://h/v1?***');
    expect(redactUrlCredentials('http://h/cb#access_token=abc&x=')).toBe(
      'http://h/cb#access_token=***&x=',
    );
  });

  it('redacts every URL inside a longer text, credentials and query together', () => {
    expect(redactUrlCredentials('proxy "https://me:pw@p.local/v1?token=t1" failed')).toBe(
      'proxy "https://***@p.local/v1?token=***" failed',
    );
  });

  it('leaves URLs without secrets and plain text alone', () => {
    expect(redactUrlCredentials('https://api.openai.com/v1')).toBe('https://api.openai.com/v1');
    expect(redactUrlCredentials('http://h/v1?')).toBe('http://h/v1?');
    expect(redactUrlCredentials('me@example.com')).toBe('me@example.com');
    expect(redactUrlCredentials('a=b?c=d')).toBe('a=b?c=d');
  });
});
