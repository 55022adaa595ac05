import { ConfigurationError } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { type ClaudeProviderOptions, resolveOptions } from './options.js';

const base = { apiKey: 'sk-ant-test', model: 'claude-test', maxTokens: 1024 };
/** The options as a JavaScript caller may pass them: no type check. */
const untyped = (extra: Record<string, unknown>) =>
  ({ ...base, ...extra }) as unknown as ClaudeProviderOptions;

describe('option names', () => {
  it('accepts baseURL, spelled as @anthropic-ai/sdk spells it, and fills in the defaults', () => {
    expect(resolveOptions({ ...base, baseURL: 'https://proxy.example/v1' })).toMatchObject({
      baseURL: 'https://proxy.example/v1',
      maxRetries: 2,
      streamRetries: 1,
      timeoutMs: 600_000,
      idleTimeoutMs: 60_000,
      stream: true,
    });
  });

  it('refuses the old spelling baseUrl, saying to use baseURL', () => {
    expect(() => resolveOptions(untyped({ baseUrl: 'https://proxy.example' }))).toThrow(
      /option "baseUrl" is now spelled "baseURL".*use baseURL/,
    );
  });

  it.each([
    ['baseurl', 'baseURL'],
    ['base_url', 'baseURL'],
    ['BaseURL', 'baseURL'],
    ['apikey', 'apiKey'],
    ['api_key', 'apiKey'],
    ['modle', 'model'],
    ['max_tokens', 'maxTokens'],
    ['maxRetires', 'maxRetries'],
  ])('refuses %s, naming it and the closest known option %s', (key, closest) => {
    const attempt = () => resolveOptions(untyped({ [key]: 'x' }));
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(`has no option "${key}". Did you mean ${closest}?`);
  });

  it.each(['colour', 'tokenParameter', 'x'])(
    'refuses the unknown option %s and lists the known ones',
    (key) => {
      const attempt = () => resolveOptions(untyped({ [key]: 1 }));
      expect(attempt).toThrow(ConfigurationError);
      expect(attempt).toThrow(new RegExp(`no option "${key}"\\. Known options: apiKey, baseURL`));
    },
  );
});

describe('option values', () => {
  it.each([
    ['baseURL', 'api.anthropic.com', /baseURL = "api.anthropic.com": expected an http\(s\) URL/],
    ['baseURL', '', /baseURL = "": expected an http\(s\) URL/],
    ['baseURL', 443, /baseURL = 443: expected an http\(s\) URL/],
    ['timeoutMs', -1, /timeoutMs = -1: expected an integer ≥ 1/],
    ['idleTimeoutMs', 0, /idleTimeoutMs = 0: expected an integer ≥ 1/],
    ['maxRetries', -1, /maxRetries = -1: expected an integer ≥ 0/],
    ['streamRetries', 0.5, /streamRetries = 0.5: expected an integer ≥ 0/],
    ['maxTokens', undefined, /maxTokens = undefined: expected an integer ≥ 1/],
    ['stream', 1, /stream = 1: expected true or false/],
    ['fetch', {}, /fetch = an object: expected a fetch function/],
    ['model', ' ', /model = " ": expected a model name/],
    ['apiKey', '', /apiKey = "": expected a non-empty string: set ANTHROPIC_API_KEY/],
  ])('refuses %s = %j with a message naming the option and the rule', (key, value, message) => {
    const attempt = () => resolveOptions(untyped({ [key]: value }));
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(message);
  });
});
