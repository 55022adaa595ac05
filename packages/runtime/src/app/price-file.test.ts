import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError, mergePriceTables, priceCall } from '@tiny-claw/core';
import { openaiPriceTable } from '@tiny-claw/providers-openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPriceFile } from './price-file.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiny-claw-prices-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const priceFile = async (content: string) => {
  const path = join(dir, 'prices.json');
  await writeFile(path, content);
  return path;
};

const failure = async (path: string): Promise<ConfigurationError> => {
  const error = await loadPriceFile(path).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ConfigurationError);
  const message = (error as ConfigurationError).message;
  expect(message).toContain('TINY_CLAW_PRICES');
  expect(message).toContain(path);
  expect((error as ConfigurationError).code).toBe('configuration');
  return error as ConfigurationError;
};

describe('loadPriceFile', () => {
  it('reads USD-per-1M-token prices into a table that prices calls', async () => {
    const path = await priceFile(
      JSON.stringify({
        models: {
          'my-model': { input: 1.25, output: 10, cached_input: 0.125 },
          'claude-sonnet-4-5': { input: 3, output: 15, cached_input: 0.3, cache_write: 3.75 },
        },
      }),
    );
    const table = await loadPriceFile(path);
    expect(table['my-model']).toEqual({
      inputPerMTok: 1.25,
      outputPerMTok: 10,
      cachedInputPerMTok: 0.125,
    });
    const usage = { inputTokens: 829, outputTokens: 119, totalTokens: 948 };
    expect(priceCall(table, 'my-model', usage)).toBe(0.00222625);
  });

  it("overrides a provider's built-in price of a model when merged over its table", async () => {
    const path = await priceFile('{"models": {"gpt-5.4": {"input": 1.25, "output": 10}}}');
    const prices = mergePriceTables(openaiPriceTable, await loadPriceFile(path));
    expect(prices['gpt-5.4']).toEqual({ inputPerMTok: 1.25, outputPerMTok: 10 });
    expect(prices['gpt-4o']).toBe(openaiPriceTable['gpt-4o']);
  });

  it('accepts a file that starts with a UTF-8 byte-order mark', async () => {
    const path = await priceFile('\uFEFF{"models": {"m": {"input": 1, "output": 2}}}');
    expect((await loadPriceFile(path)).m).toEqual({ inputPerMTok: 1, outputPerMTok: 2 });
  });

  it('a missing file is a configuration error naming the variable and the file', async () => {
    const error = await failure(join(dir, 'missing.json'));
    expect(error.message).toContain('could not be read');
  });

  it('a file that is not JSON is a configuration error that shows the expected format', async () => {
    const error = await failure(await priceFile('{"models": {'));
    expect(error.message).toContain('is not valid JSON');
    expect(error.message).toContain('USD per 1M tokens');
  });

  it('lists every problem of an invalid file, one line each, with the model path', async () => {
    const path = await priceFile(
      JSON.stringify({
        models: {
          'gpt-5.4': { output: 10 },
          cheap: { input: -1, output: 1 },
          typo: { input: 1, ouput: 1 },
          words: { input: 'one', output: 1 },
        },
      }),
    );
    const lines = (await failure(path)).message.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        '  - models["gpt-5.4"].input: is required (USD per 1M tokens)',
        '  - models.cheap.input: expected a price of at least 0 (USD per 1M tokens)',
        expect.stringMatching(/^ {2}- models\.typo: .*"ouput"/),
        '  - models.words.input: expected a number (USD per 1M tokens)',
      ]),
    );
  });

  it('a file without a "models" object is rejected', async () => {
    const error = await failure(await priceFile('{"gpt-5.4": {"input": 1, "output": 2}}'));
    expect(error.message).toContain('models');
    await failure(await priceFile('[]'));
  });
});
