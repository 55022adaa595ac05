import { mergePriceTables, type PriceTable } from '@tiny-claw/core';
import {
  httpUrl,
  isPriceTable,
  nonEmptyText,
  parseOptions,
  DEFAULT_MAX_RETRIES as SHARED_MAX_RETRIES,
  wholeNumber,
} from '@tiny-claw/core/utils';
import { z } from 'zod';
import { claudePriceTable } from './price-table.js';

/**
 * How to reach Claude and how hard to try. Names are spelled as `@anthropic-ai/sdk` spells them
 * (`baseURL`); an unknown or misspelt name is refused.
 *
 * @example
 * const options: ClaudeProviderOptions = { apiKey, model: 'claude-sonnet-4-5', maxTokens: 4096, idleTimeoutMs: 120_000 };
 */
export interface ClaudeProviderOptions {
  /** Anthropic API key (`ANTHROPIC_API_KEY`). Never appears in any error message. */
  apiKey: string;
  /** API root, e.g. a proxy (`ANTHROPIC_BASE_URL`). Default: the SDK's (`ANTHROPIC_BASE_URL`, else api.anthropic.com). */
  baseURL?: string;
  /** Model id, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** `max_tokens` of every request that does not set its own `maxTokens`. */
  maxTokens: number;
  /** Stream responses (text deltas reach `onTextDelta` as they arrive). Default `true`. */
  stream?: boolean;
  /**
   * Retries of a failed HTTP request (408/409/429/5xx/529, connection errors, timeouts); a
   * `retry-after` is honoured up to 8 s, cut to 8 s up to 60 s and ignored beyond. Default 2.
   */
  maxRetries?: number;
  /** Per HTTP attempt, until the response headers arrive. Default 600 000 (10 min). */
  timeoutMs?: number;
  /** Once headers arrived, a stream silent for this long (pings count as activity) is abandoned. Default 60 000. */
  idleTimeoutMs?: number;
  /** Extra attempts after a cut, stalled or errored stream that has not yet sent text. Default 1. */
  streamRetries?: number;
  /** A `fetch` to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
  /**
   * Prices (USD per 1M tokens) added to or replacing entries of {@link claudePriceTable}, e.g. for
   * a proxy's model names. Every response with usage and a priced model gets `costUsd`.
   */
  prices?: PriceTable;
}

/**
 * Default of {@link ClaudeProviderOptions.timeoutMs} (the SDK's own default).
 *
 * @example
 * new ClaudeProvider({ ...options, timeoutMs: DEFAULT_TIMEOUT_MS / 2 });
 */
export const DEFAULT_TIMEOUT_MS = 600_000;
/**
 * Default of {@link ClaudeProviderOptions.idleTimeoutMs}.
 *
 * @example
 * new ClaudeProvider({ ...options, idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS * 2 });
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/**
 * Default of {@link ClaudeProviderOptions.maxRetries}, the same for every tiny-claw provider.
 *
 * @example
 * new ClaudeProvider({ ...options, maxRetries: DEFAULT_MAX_RETRIES + 2 });
 */
export const DEFAULT_MAX_RETRIES: number = SHARED_MAX_RETRIES;
/**
 * Default of {@link ClaudeProviderOptions.streamRetries}.
 *
 * @example
 * new ClaudeProvider({ ...options, streamRetries: DEFAULT_STREAM_RETRIES + 1 });
 */
export const DEFAULT_STREAM_RETRIES = 1;

/**
 * The options with every default filled in.
 *
 * @example
 * const resolved: ResolvedOptions = resolveOptions({ apiKey, model: 'claude-sonnet-4-5', maxTokens: 4096 });
 */
export interface ResolvedOptions {
  apiKey: string;
  baseURL: string | undefined;
  model: string;
  maxTokens: number;
  stream: boolean;
  maxRetries: number;
  timeoutMs: number;
  idleTimeoutMs: number;
  streamRetries: number;
  fetch: typeof fetch | undefined;
  /** {@link claudePriceTable} with the `prices` option merged over it. */
  prices: PriceTable;
}

const optionsSchema = z.strictObject({
  apiKey: nonEmptyText('a non-empty string: set ANTHROPIC_API_KEY or pass apiKey'),
  baseURL: httpUrl('https://api.anthropic.com').optional(),
  model: nonEmptyText('a model name such as claude-sonnet-4-5 (TINY_CLAW_MODEL)'),
  maxTokens: wholeNumber(1),
  stream: z
    .custom<boolean>((value) => typeof value === 'boolean', { message: 'true or false' })
    .optional(),
  maxRetries: wholeNumber(0).optional(),
  timeoutMs: wholeNumber(1).optional(),
  idleTimeoutMs: wholeNumber(1).optional(),
  streamRetries: wholeNumber(0).optional(),
  fetch: z
    .custom<typeof fetch>((value) => typeof value === 'function', { message: 'a fetch function' })
    .optional(),
  prices: z
    .custom<PriceTable>(isPriceTable, {
      message: 'a price table { "<model>": { inputPerMTok, outputPerMTok } } (USD per 1M tokens)',
    })
    .optional(),
});

/**
 * Validate the options and fill in defaults. Throws `ConfigurationError` naming the bad option:
 * an unknown key (with the closest known option), the old spelling `baseUrl`, or a wrong value.
 *
 * @example
 * resolveOptions({ apiKey, model: 'claude-sonnet-4-5', maxTokens: 4096 }).maxRetries; // 2
 */
export function resolveOptions(input: ClaudeProviderOptions): ResolvedOptions {
  const options = parseOptions(optionsSchema, input, 'ClaudeProvider', { baseUrl: 'baseURL' });
  return {
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    model: options.model,
    maxTokens: options.maxTokens,
    stream: options.stream ?? true,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    streamRetries: options.streamRetries ?? DEFAULT_STREAM_RETRIES,
    fetch: options.fetch,
    prices: options.prices ? mergePriceTables(claudePriceTable, options.prices) : claudePriceTable,
  };
}
