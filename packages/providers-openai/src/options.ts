import { mergePriceTables, type PriceTable } from '@tiny-claw/core';
import {
  DEFAULT_MAX_RETRIES,
  httpUrl,
  isPriceTable,
  nonEmptyText,
  parseOptions,
  wholeNumber,
} from '@tiny-claw/core/utils';
import { z } from 'zod';
import { openaiPriceTable } from './price-table.js';

/**
 * Which token-limit parameter a request carries.
 *
 * @example
 * const parameter: TokenParameter = 'max_completion_tokens';
 */
export type TokenParameter = 'max_tokens' | 'max_completion_tokens';

/**
 * Settings of an {@link OpenAIProvider}. Only `apiKey` and `model` are required. Names are spelled
 * as the `openai` SDK spells them (`baseURL`); an unknown or misspelt name is refused.
 *
 * @example
 * const options: OpenAIProviderOptions = { apiKey: process.env.OPENAI_API_KEY ?? '', model: 'gpt-4.1-mini' };
 */
export interface OpenAIProviderOptions {
  /** Sent as a bearer token; never appears in an error message. */
  apiKey: string;
  /** Any OpenAI-compatible endpoint, e.g. `http://127.0.0.1:11434/v1`. Default: the SDK's (`OPENAI_BASE_URL`, else api.openai.com). */
  baseURL?: string;
  model: string;
  /** Output token limit when the request sets none. Not sent when neither sets one. */
  maxTokens?: number;
  /**
   * Which token-limit parameter to send: 'auto' (default) sends `max_completion_tokens` for
   * o-series/gpt-5* models and `max_tokens` otherwise; or force one.
   */
  tokenParameter?: 'auto' | TokenParameter;
  /** Stream the answer (default true); text deltas then reach `onTextDelta` as they arrive. */
  stream?: boolean;
  /** Retries of a failed HTTP request (408/409/429/5xx/529, connection errors, timeouts). Default 2. */
  maxRetries?: number;
  /** Per request, until the response headers arrive. Default 600_000. */
  timeoutMs?: number;
  /** Stream idle watchdog: once headers arrived, abort when no byte arrives for this long. Default 60_000. */
  idleTimeoutMs?: number;
  /** Retries of an incomplete, stalled or errored stream that has not yet sent text. Default 1. */
  streamRetries?: number;
  /** A `fetch` to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
  /**
   * Prices (USD per 1M tokens) added to or replacing entries of {@link openaiPriceTable}, e.g. for
   * a compatible server's models. Every response with usage and a priced model gets `costUsd`.
   */
  prices?: PriceTable;
}

/**
 * The options with every default filled in.
 *
 * @example
 * const resolved: ResolvedOptions = resolveOptions({ apiKey: 'sk-…', model: 'gpt-4.1' });
 */
export interface ResolvedOptions {
  apiKey: string;
  baseURL: string | undefined;
  model: string;
  maxTokens: number | undefined;
  tokenParameter: 'auto' | TokenParameter;
  stream: boolean;
  maxRetries: number;
  timeoutMs: number;
  idleTimeoutMs: number;
  streamRetries: number;
  fetch: typeof fetch | undefined;
  /** {@link openaiPriceTable} with the `prices` option merged over it. */
  prices: PriceTable;
}

/**
 * The defaults, matching the SDK's own (`maxRetries` 2, `timeout` 10 min).
 *
 * @example
 * OPENAI_DEFAULTS.idleTimeoutMs; // 60_000
 */
export const OPENAI_DEFAULTS = {
  tokenParameter: 'auto',
  stream: true,
  maxRetries: DEFAULT_MAX_RETRIES,
  timeoutMs: 600_000,
  idleTimeoutMs: 60_000,
  streamRetries: 1,
} as const;

const optionsSchema = z.strictObject({
  apiKey: nonEmptyText(
    'a non-empty string: set OPENAI_API_KEY or pass apiKey (any placeholder works for a local server that ignores it)',
  ),
  baseURL: httpUrl('http://127.0.0.1:11434/v1').optional(),
  model: nonEmptyText('a model name such as gpt-4.1-mini (TINY_CLAW_MODEL)'),
  maxTokens: wholeNumber(1).optional(),
  tokenParameter: z
    .custom<'auto' | TokenParameter>(
      (value) => value === 'auto' || value === 'max_tokens' || value === 'max_completion_tokens',
      { message: 'one of auto, max_tokens, max_completion_tokens' },
    )
    .optional(),
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
 * resolveOptions({ apiKey: 'sk-…', model: 'gpt-4.1' }).maxRetries; // 2
 */
export function resolveOptions(input: OpenAIProviderOptions): ResolvedOptions {
  const options = parseOptions(optionsSchema, input, 'OpenAIProvider', { baseUrl: 'baseURL' });
  return {
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    model: options.model,
    maxTokens: options.maxTokens,
    tokenParameter: options.tokenParameter ?? OPENAI_DEFAULTS.tokenParameter,
    stream: options.stream ?? OPENAI_DEFAULTS.stream,
    maxRetries: options.maxRetries ?? OPENAI_DEFAULTS.maxRetries,
    timeoutMs: options.timeoutMs ?? OPENAI_DEFAULTS.timeoutMs,
    idleTimeoutMs: options.idleTimeoutMs ?? OPENAI_DEFAULTS.idleTimeoutMs,
    streamRetries: options.streamRetries ?? OPENAI_DEFAULTS.streamRetries,
    fetch: options.fetch,
    prices: options.prices ? mergePriceTables(openaiPriceTable, options.prices) : openaiPriceTable,
  };
}

/**
 * Pick the token-limit parameter: o-series and gpt-5 models only accept `max_completion_tokens`;
 * most compatible servers only know `max_tokens`. A `vendor/` prefix (OpenRouter) is ignored.
 *
 * @example
 * tokenParameterFor('o4-mini', 'auto'); // 'max_completion_tokens'
 * tokenParameterFor('gpt-4.1', 'auto'); // 'max_tokens'
 */
export function tokenParameterFor(model: string, setting: 'auto' | TokenParameter): TokenParameter {
  if (setting !== 'auto') return setting;
  const base = (model.split('/').pop() ?? model).toLowerCase();
  return /^(o\d|gpt-5)/.test(base) ? 'max_completion_tokens' : 'max_tokens';
}
