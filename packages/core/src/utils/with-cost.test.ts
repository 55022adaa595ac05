import { describe, expect, it } from 'vitest';
import type { PriceTable } from '../observe/price-table.js';
import type { LLMResponse } from '../provider.js';
import { withCost } from './with-cost.js';

const prices: PriceTable = { 'model-a': { inputPerMTok: 1.25, outputPerMTok: 10 } };
const usage = { inputTokens: 829, outputTokens: 119, totalTokens: 948 };
const response = (extra: Partial<LLMResponse> = {}): LLMResponse => ({
  message: { role: 'assistant', content: 'ok' },
  provider: 'test',
  model: 'model-a',
  usage,
  ...extra,
});

describe('withCost', () => {
  it('prices a response with usage and a known model', () => {
    expect(withCost(response(), prices).costUsd).toBe(0.00222625);
  });

  it('finds the price by the same rules as priceCall (a snapshot suffix is ignored)', () => {
    expect(withCost(response({ model: 'model-a-2026-01-01' }), prices).costUsd).toBe(0.00222625);
  });

  it('keeps a cost the response already has', () => {
    expect(withCost(response({ costUsd: 0.5 }), prices).costUsd).toBe(0.5);
  });

  it('leaves a response without usage or with an unknown model unpriced', () => {
    const { usage: _, ...withoutUsage } = response();
    expect(withCost(withoutUsage, prices)).not.toHaveProperty('costUsd');
    expect(withCost(response({ model: 'model-b' }), prices)).not.toHaveProperty('costUsd');
  });

  it('prices by the requested model when the response names none', () => {
    const { model: _, ...anonymous } = response();
    expect(withCost(anonymous, prices, 'model-a').costUsd).toBe(0.00222625);
    expect(withCost(anonymous, prices)).not.toHaveProperty('costUsd');
  });
});
