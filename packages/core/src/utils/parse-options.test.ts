import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '../errors.js';
import { httpUrl, isPriceTable, nonEmptyText, parseOptions, wholeNumber } from './parse-options.js';

const schema = z.strictObject({
  apiKey: nonEmptyText('a non-empty API key'),
  model: nonEmptyText('a model name'),
  baseURL: httpUrl('http://127.0.0.1:8080/v1').optional(),
  maxRetries: wholeNumber(0).optional(),
});
const parse = (input: unknown) =>
  parseOptions(schema, input, 'DemoProvider', { baseUrl: 'baseURL' });

describe('parseOptions refuses what it cannot use, saying what to write instead', () => {
  it('returns the options when they fit', () => {
    expect(parse({ apiKey: 'k', model: 'm', maxRetries: 0 })).toEqual({
      apiKey: 'k',
      model: 'm',
      maxRetries: 0,
    });
  });

  it.each([
    [{ apiKey: 'k', model: 'm', baseUrl: 'http://x' }, /option "baseUrl" is now spelled "baseURL"/],
    [
      { apiKey: 'k', model: 'm', base_url: 'http://x' },
      /no option "base_url"\. Did you mean baseURL\?/,
    ],
    [{ apiKey: 'k', model: 'm', BaseURL: 'http://x' }, /Did you mean baseURL\?/],
    [{ apikey: 'k', model: 'm' }, /no option "apikey"\. Did you mean apiKey\?/],
    [{ apiKey: 'k', modle: 'm' }, /no option "modle"\. Did you mean model\?/],
    [
      { apiKey: 'k', model: 'm', colour: 'red' },
      /no option "colour"\. Known options: apiKey, model, baseURL, maxRetries/,
    ],
    [
      { apiKey: 'k', model: 'm', baseURL: 'ftp://x' },
      /option baseURL = "ftp:\/\/x": expected an http\(s\) URL/,
    ],
    [
      { apiKey: 'k', model: 'm', maxRetries: -1 },
      /option maxRetries = -1: expected an integer ≥ 0/,
    ],
    [{ apiKey: 'k', model: 'm', maxRetries: 1.5 }, /option maxRetries = 1\.5/],
    [{ apiKey: 'k', model: '' }, /option model = "": expected a model name/],
    [null, /needs an options object/],
    ['sk-123', /needs an options object/],
    [[1], /needs an options object/],
  ])('%j is refused: %s', (input, message) => {
    expect(() => parse(input)).toThrow(ConfigurationError);
    expect(() => parse(input)).toThrow(message);
  });

  it.each([['   '], [42], ['']])('never shows the value of a secret option (%j)', (apiKey) => {
    const attempt = () => parse({ apiKey, model: 'm' });
    expect(attempt).toThrow(/option apiKey = /);
    try {
      attempt();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(String(apiKey).trim() || '\u0000');
    }
  });
});

describe('isPriceTable accepts a price table as code passes it', () => {
  it.each([
    [{}, true],
    [{ m: { inputPerMTok: 1, outputPerMTok: 2 } }, true],
    [
      { m: { inputPerMTok: 0, outputPerMTok: 0, cachedInputPerMTok: 0.1, cacheWritePerMTok: 1 } },
      true,
    ],
    [{ m: { inputPerMTok: -1, outputPerMTok: 2 } }, false],
    [{ m: { inputPerMTok: 1 } }, false],
    [{ m: { inputPerMTok: 1, outputPerMTok: Number.NaN } }, false],
    [{ m: { inputPerMTok: 1, outputPerMTok: 2, cachedInputPerMTok: '0.1' } }, false],
    [{ models: { m: { input: 1, output: 2 } } }, false],
    [null, false],
    [[], false],
    ['cheap', false],
  ])('%j → %s', (value, expected) => {
    expect(isPriceTable(value)).toBe(expected);
  });
});
