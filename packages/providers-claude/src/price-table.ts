import type { PriceTable } from '@tiny-claw/core';

/**
 * List prices of Claude models in USD per 1M tokens, at the time of writing (mid 2026), standard
 * tier, short context; Anthropic changes them and charges more for long prompts. Cache reads and
 * cache writes have their own rates. Each response of a `ClaudeProvider` is priced from this table
 * merged with the `prices` option, matched as core's `findModelPrice` matches (case, router prefix
 * and snapshot suffix ignored).
 *
 * @example
 * claudePriceTable['claude-sonnet-4-5']?.cacheWritePerMTok; // 3.75
 */
export const claudePriceTable: PriceTable = Object.freeze({
  'claude-sonnet-4-20250514': {
    inputPerMTok: 3,
    cachedInputPerMTok: 0.3,
    cacheWritePerMTok: 3.75,
    outputPerMTok: 15,
  },
  'claude-sonnet-4-5': {
    inputPerMTok: 3,
    cachedInputPerMTok: 0.3,
    cacheWritePerMTok: 3.75,
    outputPerMTok: 15,
  },
  'claude-opus-4-1': {
    inputPerMTok: 15,
    cachedInputPerMTok: 1.5,
    cacheWritePerMTok: 18.75,
    outputPerMTok: 75,
  },
  'claude-3-5-haiku': {
    inputPerMTok: 0.8,
    cachedInputPerMTok: 0.08,
    cacheWritePerMTok: 1,
    outputPerMTok: 4,
  },
});
