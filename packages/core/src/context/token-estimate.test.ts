import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from './token-estimate.js';

const sample = (name: string) =>
  readFileSync(new URL(`./__fixtures__/token-samples/${name}`, import.meta.url), 'utf8');

/**
 * Exact o200k_base counts of the samples, computed once with a real tokenizer (gpt-tokenizer 3.4)
 * and pasted here, so no tokenizer is loaded when the tests run.
 */
const EXACT: Record<string, number> = {
  'code.ts.txt': 526,
  'code.py.txt': 325,
  'chinese.txt': 631,
  'chinese-traditional.txt': 287,
  'mixed-code.ts.txt': 423,
  'mixed-chat.md': 305,
};

describe('token estimate', () => {
  it.each(Object.entries(EXACT))('is within ±15 %% of the exact count on %s', (name, exact) => {
    const estimate = estimateTokens(sample(name));
    expect(Math.abs(estimate / exact - 1)).toBeLessThanOrEqual(0.15);
  });

  it('counts Chinese close to one token per character, where characters ÷ 4 is far too low', () => {
    const text = sample('chinese.txt');
    const exact = EXACT['chinese.txt'] as number;
    expect(text.length / 4 / exact).toBeLessThan(0.4);
    expect(estimateTokens(text) / exact).toBeGreaterThan(0.85);
  });

  it('counts nothing for empty text and at least one token for any word, digit or symbol', () => {
    expect(estimateTokens('')).toBe(0);
    for (const text of ['a', '7', '{', '中', 'ア', '한', 'é', '😀']) {
      expect(estimateTokens(text)).toBeGreaterThanOrEqual(1);
    }
  });

  it('grows with the text: twice the text is about twice the tokens', () => {
    const text = sample('mixed-chat.md');
    const once = estimateTokens(text);
    const twice = estimateTokens(text + text);
    expect(twice).toBeGreaterThanOrEqual(2 * once - 2);
    expect(twice).toBeLessThanOrEqual(2 * once + 2);
  });

  it('splits digits in groups of three and identifiers at a capital, as the tokenizer does', () => {
    expect(estimateTokens('123456789')).toBeGreaterThan(estimateTokens('123'));
    expect(estimateTokens('readFileSync')).toBeGreaterThan(estimateTokens('readfilesync'));
  });
});
