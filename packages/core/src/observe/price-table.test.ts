import { describe, expect, it } from 'vitest';
import type { LLMUsage } from '../provider.js';
import {
  findModelPrice,
  mergePriceTables,
  type PriceTable,
  priceCall,
  priceTableSchema,
} from './price-table.js';

const table: PriceTable = {
  'priced-model': { inputPerMTok: 1.25, outputPerMTok: 10 },
  'cached-model': { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.125 },
  'anthropic-like': {
    inputPerMTok: 3,
    outputPerMTok: 15,
    cachedInputPerMTok: 0.3,
    cacheWritePerMTok: 3.75,
  },
};

/** A vendor-like table: dated snapshots, aliases and variants, as provider packages ship them. */
const vendorTable: PriceTable = Object.freeze({
  'model-a': { inputPerMTok: 2.5, cachedInputPerMTok: 0.25, outputPerMTok: 15 },
  'model-a-mini': { inputPerMTok: 0.25, outputPerMTok: 2 },
  'model-b-4-20250514': { inputPerMTok: 3, outputPerMTok: 15 },
  'model-b-4-5': { inputPerMTok: 3, outputPerMTok: 15 },
  'model-c-haiku': { inputPerMTok: 0.8, outputPerMTok: 4 },
});

const usage = (fields: Partial<LLMUsage>): LLMUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  totalTokens: 0,
  ...fields,
});

describe('priceCall', () => {
  it('829 in + 119 out at 1.25/10.00 per MTok costs 0.00222625 USD', () => {
    const cost = priceCall(table, 'priced-model', usage({ inputTokens: 829, outputTokens: 119 }));
    expect(cost).toBe(0.00222625);
  });

  it('bills cached input tokens at the cached rate and the rest at the input rate', () => {
    // 1000 prompt tokens of which 800 cached: 200 × 1.25 + 800 × 0.125 + 100 × 10 = 1350 µUSD.
    const cost = priceCall(
      table,
      'cached-model',
      usage({ inputTokens: 1000, cacheReadTokens: 800, outputTokens: 100 }),
    );
    expect(cost).toBe(0.00135);
  });

  it('bills cached input at the input rate when the model has no cached rate', () => {
    const cost = priceCall(
      table,
      'priced-model',
      usage({ inputTokens: 1000, cacheReadTokens: 800, outputTokens: 0 }),
    );
    expect(cost).toBe(0.00125);
  });

  it('bills cache writes at the cache-write rate', () => {
    // 100 × 3 + 1000 × 0.3 + 400 × 3.75 + 10 × 15 = 2250 µUSD.
    const cost = priceCall(
      table,
      'anthropic-like',
      usage({ inputTokens: 1500, cacheReadTokens: 1000, cacheWriteTokens: 400, outputTokens: 10 }),
    );
    expect(cost).toBe(0.00225);
  });

  it('never bills a negative uncached remainder when cached counts exceed input', () => {
    const cost = priceCall(
      table,
      'cached-model',
      usage({ inputTokens: 10, cacheReadTokens: 1000, outputTokens: 0 }),
    );
    expect(cost).toBe(0.000125);
  });

  it('an unpriced model has no cost', () => {
    expect(priceCall(table, 'mystery-model', usage({ inputTokens: 5 }))).toBeUndefined();
  });

  it('zero tokens on a priced model cost exactly 0', () => {
    expect(priceCall(table, 'priced-model', usage({}))).toBe(0);
  });
});

describe('findModelPrice', () => {
  it('falls back from a dated snapshot to its base model', () => {
    expect(findModelPrice(vendorTable, 'model-a-2026-03-01')).toBe(vendorTable['model-a']);
    expect(findModelPrice(vendorTable, 'model-b-4-5-20250929')).toBe(vendorTable['model-b-4-5']);
    expect(findModelPrice(vendorTable, 'model-a-mini-2024-07-18')).toBe(
      vendorTable['model-a-mini'],
    );
    expect(findModelPrice(vendorTable, 'model-c-haiku-latest')).toBe(vendorTable['model-c-haiku']);
  });

  it('finds a dated table entry from its undated alias', () => {
    expect(findModelPrice(vendorTable, 'model-b-4')).toBe(vendorTable['model-b-4-20250514']);
  });

  it('ignores case and a router prefix', () => {
    expect(findModelPrice(vendorTable, 'MODEL-A')).toBe(vendorTable['model-a']);
    expect(findModelPrice(vendorTable, 'router/model-a-mini')).toBe(vendorTable['model-a-mini']);
  });

  it('does not price a different variant as its base model', () => {
    expect(findModelPrice(vendorTable, 'model-a-pro')).toBeUndefined();
    expect(findModelPrice({ 'gpt-5': { inputPerMTok: 1, outputPerMTok: 1 } }, 'gpt-5-mini')).toBe(
      undefined,
    );
  });

  it('prefers an exact entry over a fallback', () => {
    const prices: PriceTable = {
      'gpt-5.4': { inputPerMTok: 1, outputPerMTok: 1 },
      'gpt-5.4-2026-03-01': { inputPerMTok: 2, outputPerMTok: 2 },
    };
    expect(findModelPrice(prices, 'gpt-5.4-2026-03-01')?.inputPerMTok).toBe(2);
  });

  it('does not find inherited object properties', () => {
    expect(findModelPrice(vendorTable, 'constructor')).toBeUndefined();
    expect(findModelPrice(vendorTable, 'toString')).toBeUndefined();
  });
});

describe('mergePriceTables', () => {
  it('adds new models and replaces an existing model entry whole', () => {
    const merged = mergePriceTables(vendorTable, {
      'model-a': { inputPerMTok: 1.25, outputPerMTok: 10 },
      'local-llm': { inputPerMTok: 0, outputPerMTok: 0 },
    });
    expect(merged['model-a']).toEqual({ inputPerMTok: 1.25, outputPerMTok: 10 });
    expect(merged['local-llm']).toEqual({ inputPerMTok: 0, outputPerMTok: 0 });
    expect(merged['model-a-mini']).toBe(vendorTable['model-a-mini']);
    expect(vendorTable['model-a']?.inputPerMTok).toBe(2.5);
    expect(Object.isFrozen(merged)).toBe(true);
  });
});

describe('priceTableSchema', () => {
  it('turns the user file format into a price table', () => {
    const parsed = priceTableSchema.parse({
      models: {
        'my-model': { input: 1.25, output: 10, cached_input: 0.125 },
        other: { input: 3, output: 15, cached_input: 0.3, cache_write: 3.75 },
      },
    });
    expect(parsed).toEqual({
      'my-model': { inputPerMTok: 1.25, outputPerMTok: 10, cachedInputPerMTok: 0.125 },
      other: {
        inputPerMTok: 3,
        outputPerMTok: 15,
        cachedInputPerMTok: 0.3,
        cacheWritePerMTok: 3.75,
      },
    });
  });

  it('rejects missing, negative, non-numeric and misspelled prices', () => {
    const result = priceTableSchema.safeParse({
      models: {
        a: { output: 10 },
        b: { input: -1, output: 10 },
        c: { input: '1', output: 10 },
        d: { input: 1, ouput: 10 },
      },
    });
    expect(result.success).toBe(false);
    const problems = result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(problems).toEqual(
      expect.arrayContaining([
        ['models.a.input', 'is required (USD per 1M tokens)'],
        ['models.b.input', 'expected a price of at least 0 (USD per 1M tokens)'],
        ['models.c.input', 'expected a number (USD per 1M tokens)'],
        ['models.d', expect.stringContaining('ouput')],
      ]),
    );
  });

  it('rejects a file without a models object', () => {
    expect(priceTableSchema.safeParse({ 'gpt-5.4': { input: 1, output: 1 } }).success).toBe(false);
    expect(priceTableSchema.safeParse([]).success).toBe(false);
  });
});
