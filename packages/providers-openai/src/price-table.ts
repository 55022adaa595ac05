import type { PriceTable } from '@tiny-claw/core';

/**
 * List prices of OpenAI models in USD per 1M tokens, at the time of writing (mid 2026), standard
 * tier, short context; OpenAI changes them and charges more for long prompts. Each response of an
 * `OpenAIProvider` is priced from this table merged with the `prices` option, matched as
 * core's `findModelPrice` matches (case, router prefix and snapshot suffix ignored).
 *
 * @example
 * openaiPriceTable['gpt-5.4']?.inputPerMTok; // 2.5
 */
export const openaiPriceTable: PriceTable = Object.freeze({
  'gpt-5.4': { inputPerMTok: 2.5, cachedInputPerMTok: 0.25, outputPerMTok: 15 },
  'gpt-5.4-mini': { inputPerMTok: 0.75, cachedInputPerMTok: 0.075, outputPerMTok: 4.5 },
  'gpt-5': { inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10 },
  'gpt-5-mini': { inputPerMTok: 0.25, cachedInputPerMTok: 0.025, outputPerMTok: 2 },
  'gpt-4.1': { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8 },
  'gpt-4o': { inputPerMTok: 2.5, cachedInputPerMTok: 1.25, outputPerMTok: 10 },
  'gpt-4o-mini': { inputPerMTok: 0.15, cachedInputPerMTok: 0.075, outputPerMTok: 0.6 },
});
