import { type PriceTable, priceCall } from '../observe/price-table.js';
import type { LLMResponse } from '../provider.js';

/**
 * `response` with `costUsd` set from `prices` when it reports usage and its model (else
 * `fallbackModel`, the one asked for) has a price. A cost the response already carries wins (a
 * provider's own figure beats a list-price estimate); an unknown model or a response without usage
 * is returned unchanged.
 *
 * @example
 * return withCost(response, mergePriceTables(openaiPriceTable, options.prices ?? {}), this.model);
 */
export function withCost(
  response: LLMResponse,
  prices: PriceTable,
  fallbackModel?: string,
): LLMResponse {
  const model = response.model ?? fallbackModel;
  if (response.costUsd !== undefined || !response.usage || model === undefined) return response;
  const costUsd = priceCall(prices, model, response.usage);
  return costUsd === undefined ? response : { ...response, costUsd };
}
