import { ConfigurationError } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import {
  OPENAI_DEFAULTS,
  type OpenAIProviderOptions,
  resolveOptions,
  tokenParameterFor,
} from './options.js';

describe('resolveOptions', () => {
  it('fills in the documented defaults', () => {
    const resolved = resolveOptions({ apiKey: 'k', model: 'gpt-4.1' });
    expect(resolved).toMatchObject({
      ...OPENAI_DEFAULTS,
      baseURL: undefined,
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

const base = { apiKey: 'sk-test', model: 'gpt-4.1' };
/** The options as a JavaScript caller may pass them: no type check. */
const untyped = (extra: Record<string, unknown>) =>
  ({ ...base, ...extra }) as unknown as OpenAIProviderOptions;

describe('option names', () => {
  it('accepts baseURL, spelled as the openai SDK spells it', () => {
    expect(resolveOptions({ ...base, baseURL: 'http://127.0.0.1:11434/v1' }).baseURL).toBe(
      'http://127.0.0.1:11434/v1',
    );
  });

  it('refuses the old spelling baseUrl, saying to use baseURL', () => {
    expect(() => resolveOptions(untyped({ baseUrl: 'http://127.0.0.1:9/v1' }))).toThrow(
      /option "baseUrl" is now spelled "baseURL".*use baseURL/,
    );
  });

  it.each([
    ['baseurl', 'baseURL'],
    ['base_url', 'baseURL'],
    ['BaseURL', 'baseURL'],
    ['BASE_URL', 'baseURL'],
    ['apikey', 'apiKey'],
    ['api_key', 'apiKey'],
    ['modle', 'model'],
    ['max_retries', 'maxRetries'],
    ['timeout', 'timeoutMs'],
    ['maxToken', 'maxTokens'],
  ])('refuses %s, naming it and the closest known option %s', (key, closest) => {
    const attempt = () => resolveOptions(untyped({ [key]: 'x' }));
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(`has no option "${key}". Did you mean ${closest}?`);
  });

  it.each(['colour', 'organizationId', 'x'])(
    'refuses the unknown option %s and lists the known ones',
    (key) => {
      const attempt = () => resolveOptions(untyped({ [key]: 1 }));
      expect(attempt).toThrow(ConfigurationError);
      expect(attempt).toThrow(
        new RegExp(`no option "${key}"\\. Known options: apiKey, baseURL, model`),
      );
    },
  );

  it.each([undefined, null, 'sk-key', 42])(
    'refuses options that are not an object (%s)',
    (value) => {
      expect(() => resolveOptions(value as unknown as OpenAIProviderOptions)).toThrow(
        /OpenAIProvider needs an options object/,
      );
    },
  );
});

describe('option values', () => {
  it.each([
    ['baseURL', 'not a url', /baseURL = "not a url": expected an http\(s\) URL/],
    ['baseURL', 'ftp://example.com', /baseURL = "ftp:\/\/example.com": expected an http\(s\) URL/],
    ['baseURL', '', /baseURL = "": expected an http\(s\) URL/],
    ['baseURL', 8080, /baseURL = 8080: expected an http\(s\) URL/],
    ['timeoutMs', -1, /timeoutMs = -1: expected an integer ≥ 1/],
    ['timeoutMs', '5000', /timeoutMs = "5000": expected an integer ≥ 1/],
    ['idleTimeoutMs', 0, /idleTimeoutMs = 0: expected an integer ≥ 1/],
    ['maxRetries', -1, /maxRetries = -1: expected an integer ≥ 0/],
    ['maxRetries', 1.5, /maxRetries = 1.5: expected an integer ≥ 0/],
    ['streamRetries', Number.NaN, /streamRetries = NaN: expected an integer ≥ 0/],
    ['maxTokens', 0, /maxTokens = 0: expected an integer ≥ 1/],
    ['stream', 'yes', /stream = "yes": expected true or false/],
    ['tokenParameter', 'max', /tokenParameter = "max": expected one of auto, max_tokens/],
    ['fetch', 'http://proxy', /fetch = "http:\/\/proxy": expected a fetch function/],
    ['prices', { m: { input: 1 } }, /prices = an object: expected a price table/],
    ['model', '', /model = "": expected a model name/],
    ['apiKey', '', /apiKey = "": expected a non-empty string: set OPENAI_API_KEY/],
  ])('refuses %s = %j with a message naming the option and the rule', (key, value, message) => {
    const attempt = () => resolveOptions(untyped({ [key]: value }));
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(message);
  });

  it('never shows the API key in an option error', () => {
    const attempt = () => resolveOptions(untyped({ apiKey: '   ' }));
    expect(attempt).toThrow(/apiKey = a blank string/);
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
