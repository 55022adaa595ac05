import { z } from 'zod';
import type { LLMUsage } from '../provider.js';

/**
 * What one model costs, in **USD per 1M tokens**. Cached input and cache writes fall back to the
 * input rate when the model has no separate rate.
 *
 * @example
 * const price: ModelPrice = { inputPerMTok: 2.5, outputPerMTok: 15, cachedInputPerMTok: 0.25 };
 */
export interface ModelPrice {
  readonly inputPerMTok: number;
  readonly outputPerMTok: number;
  readonly cachedInputPerMTok?: number;
  readonly cacheWritePerMTok?: number;
}

/**
 * Model name → price. Look models up with {@link findModelPrice}, not by indexing. Each provider
 * package ships the table of its vendor's models; users extend it with a prices file.
 *
 * @example
 * const table: PriceTable = { 'my-model': { inputPerMTok: 1.25, outputPerMTok: 10 } };
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

const rate = z.number({
  error: (issue) =>
    issue.input === undefined
      ? 'is required (USD per 1M tokens)'
      : 'expected a number (USD per 1M tokens)',
});
const perMTok = rate.nonnegative('expected a price of at least 0 (USD per 1M tokens)');

const priceEntrySchema = z.strictObject({
  input: perMTok,
  output: perMTok,
  cached_input: perMTok.optional(),
  cache_write: perMTok.optional(),
});

/**
 * The `TINY_CLAW_PRICES` file, parsed into a {@link PriceTable}. All prices are USD per 1M
 * tokens; unknown keys are rejected so a typo (`ouput`) is reported rather than ignored:
 *
 * ```json
 * { "models": { "my-model": { "input": 2.5, "output": 15, "cached_input": 0.25 },
 *               "my-cached-model": { "input": 3, "output": 15, "cached_input": 0.3, "cache_write": 3.75 } } }
 * ```
 *
 * @example
 * const table = priceTableSchema.parse({ models: { 'my-model': { input: 1.25, output: 10 } } });
 * table['my-model']; // → { inputPerMTok: 1.25, outputPerMTok: 10 }
 */
export const priceTableSchema: z.ZodType<PriceTable, unknown> = z
  .strictObject({
    models: z.record(z.string().trim().min(1, 'a model name must not be empty'), priceEntrySchema),
  })
  .transform(({ models }): PriceTable => {
    const table: Record<string, ModelPrice> = {};
    for (const [model, entry] of Object.entries(models)) {
      table[model] = {
        inputPerMTok: entry.input,
        outputPerMTok: entry.output,
        ...(entry.cached_input === undefined ? {} : { cachedInputPerMTok: entry.cached_input }),
        ...(entry.cache_write === undefined ? {} : { cacheWritePerMTok: entry.cache_write }),
      };
    }
    return Object.freeze(table);
  });

/**
 * The `TINY_CLAW_PRICES` file as the user writes it.
 *
 * @example
 * const file: PriceFile = { models: { 'my-model': { input: 1.25, output: 10, cached_input: 0.125 } } };
 */
export type PriceFile = z.input<typeof priceTableSchema>;

/**
 * `base` with every model of `extra` added or replaced. A model's entry is replaced whole, never
 * field by field: a default cached rate must not survive next to a user's new input rate.
 *
 * @example
 * const prices = mergePriceTables(providerPrices, await loadPriceFile(path));
 */
export function mergePriceTables(base: PriceTable, extra: PriceTable): PriceTable {
  return Object.freeze({ ...base, ...extra });
}

// Snapshot suffixes that do not change the price: `-2026-03-01`, `-20250514`, `-latest`.
const SNAPSHOT_SUFFIX = /-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/**
 * The price of `model`: an exact entry first, then the same name ignoring case, without a router
 * prefix (`vendor/model-a`) and without a snapshot suffix (`model-a-2026-03-01` → `model-a`,
 * `model-b` → `model-b-20250514`). Only snapshot suffixes are dropped: a different variant
 * (`model-a-pro`, `model-a-mini`) stays unpriced rather than priced as its base.
 *
 * @example
 * findModelPrice(table, 'model-a-2026-03-01'); // → the model-a entry
 * findModelPrice(table, 'model-a-pro'); // → undefined
 */
export function findModelPrice(table: PriceTable, model: string): ModelPrice | undefined {
  if (Object.hasOwn(table, model)) return table[model];
  const wanted = new Set<string>();
  const lower = model.trim().toLowerCase();
  const bare = lower.slice(lower.lastIndexOf('/') + 1);
  for (const name of [lower, bare]) {
    wanted.add(name);
    wanted.add(name.replace(SNAPSHOT_SUFFIX, ''));
  }
  const keys = Object.keys(table);
  for (const key of keys) if (wanted.has(key.toLowerCase())) return table[key];
  for (const key of keys) {
    if (wanted.has(key.toLowerCase().replace(SNAPSHOT_SUFFIX, ''))) return table[key];
  }
  return undefined;
}

/**
 * Estimated USD cost of one call, or undefined when the model is not in `table`.
 *
 * `usage.inputTokens` counts every prompt token, cached or not (providers that report cached
 * tokens apart add them back before they hand usage over):
 * `cacheReadTokens` are billed at the cached rate, `cacheWriteTokens` at the cache-write rate and
 * the rest at the input rate. Reasoning tokens are already part of `outputTokens`.
 *
 * @example
 * priceCall({ m: { inputPerMTok: 1.25, outputPerMTok: 10 } }, 'm',
 *   { inputTokens: 829, outputTokens: 119, totalTokens: 948 }); // → 0.00222625
 */
export function priceCall(table: PriceTable, model: string, usage: LLMUsage): number | undefined {
  const price = findModelPrice(table, model);
  if (!price) return undefined;
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  // Clamped: a provider that reports input without the cached part must not earn a refund.
  const uncached = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  // tokens × USD per 1M tokens = micro-dollars.
  const microUsd =
    uncached * price.inputPerMTok +
    cacheRead * (price.cachedInputPerMTok ?? price.inputPerMTok) +
    cacheWrite * (price.cacheWritePerMTok ?? price.inputPerMTok) +
    usage.outputTokens * price.outputPerMTok;
  // Rounded to 1e-12 USD so the usage file shows 0.00222625, not 0.0022262500000000003.
  return Math.round(microUsd * 1e6) / 1e12;
}
