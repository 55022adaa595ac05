import { ConfigurationError } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { OPENAI_DEFAULTS, resolveOptions, tokenParameterFor } from './options.js';

describe('resolveOptions', () => {
  it('fills in the documented defaults', () => {
    const resolved = resolveOptions({ apiKey: 'k', model: 'gpt-4.1' });
    expect(resolved).toMatchObject({
      ...OPENAI_DEFAULTS,
      baseUrl: undefined,
      maxTokens: undefined,
    });
    expect(resolved).toMatchObject({
      maxRetries: 2,
      timeoutMs: 600_000,
      idleTimeoutMs: 60_000,
      streamRetries: 1,
      stream: true,
    });
  });

  it('refuses a missing key, naming OPENAI_API_KEY', () => {
    expect(() => resolveOptions({ apiKey: ' ', model: 'm' })).toThrow(ConfigurationError);
    expect(() => resolveOptions({ apiKey: '', model: 'm' })).toThrow(/OPENAI_API_KEY/);
  });

  it('refuses a missing model and bad numbers, naming the option', () => {
    expect(() => resolveOptions({ apiKey: 'k', model: '' })).toThrow(/model/);
    expect(() => resolveOptions({ apiKey: 'k', model: 'm', maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => resolveOptions({ apiKey: 'k', model: 'm', idleTimeoutMs: 0 })).toThrow(
      /idleTimeoutMs/,
    );
    expect(() => resolveOptions({ apiKey: 'k', model: 'm', maxTokens: 1.5 })).toThrow(/maxTokens/);
    expect(() =>
      resolveOptions({ apiKey: 'k', model: 'm', tokenParameter: 'max' as 'auto' }),
    ).toThrow(/tokenParameter/);
  });
});

describe('tokenParameterFor', () => {
  it.each([
    ['o1', 'max_completion_tokens'],
    ['o3-mini', 'max_completion_tokens'],
    ['o4-mini-2025-04-16', 'max_completion_tokens'],
    ['gpt-5', 'max_completion_tokens'],
    ['gpt-5.4-mini', 'max_completion_tokens'],
    ['openai/gpt-5', 'max_completion_tokens'],
    ['gpt-4.1', 'max_tokens'],
    ['gpt-4o-mini', 'max_tokens'],
    ['deepseek-chat', 'max_tokens'],
    ['llama3.1:8b', 'max_tokens'],
    ['ollama', 'max_tokens'],
  ] as const)("'auto' picks the parameter %s accepts", (model, expected) => {
    expect(tokenParameterFor(model, 'auto')).toBe(expected);
  });

  it('a forced setting wins over the model name', () => {
    expect(tokenParameterFor('gpt-5', 'max_tokens')).toBe('max_tokens');
    expect(tokenParameterFor('llama3', 'max_completion_tokens')).toBe('max_completion_tokens');
  });
});
