import { ConfigurationError, mergePriceTables, type PriceTable } from '@tiny-claw/core';
import { openaiPriceTable } from './price-table.js';

/**
 * Which token-limit parameter a request carries.
 *
 * @example
 * const parameter: TokenParameter = 'max_completion_tokens';
 */
export type TokenParameter = 'max_tokens' | 'max_completion_tokens';

/**
 * Settings of an {@link OpenAIProvider}. Only `apiKey` and `model` are required.
 *
 * @example
 * const options: OpenAIProviderOptions = { apiKey: process.env.OPENAI_API_KEY ?? '', model: 'gpt-4.1-mini' };
 */
export interface OpenAIProviderOptions {
  /** Sent as a bearer token; never appears in an error message. */
  apiKey: string;
  /** Any OpenAI-compatible endpoint, e.g. `http://127.0.0.1:11434/v1`. Default: the SDK's (`OPENAI_BASE_URL` or api.openai.com). */
  baseUrl?: string;
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
  /** Retries of a failed HTTP request (408/409/429/5xx, connection errors, timeouts). Default 2. */
  maxRetries?: number;
  /** Per request, until the response headers arrive. Default 600_000. */
  timeoutMs?: number;
  /** Stream idle watchdog: abort when no byte arrives for this long. Default 60_000. */
  idleTimeoutMs?: number;
  /** Retries of an incomplete, stalled or errored stream. Default 1. */
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
  baseUrl: string | undefined;
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
  maxRetries: 2,
  timeoutMs: 600_000,
  idleTimeoutMs: 60_000,
  streamRetries: 1,
} as const;

/**
 * Validate the options and fill in defaults. Throws `ConfigurationError` naming the bad option.
 *
 * @example
 * resolveOptions({ apiKey: 'sk-…', model: 'gpt-4.1' }).maxRetries; // 2
 */
export function resolveOptions(options: OpenAIProviderOptions): ResolvedOptions {
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
    throw new ConfigurationError(
      'OPENAI_API_KEY is required for the openai provider (any placeholder works for a local server that ignores it)',
    );
  }
  if (typeof options.model !== 'string' || options.model.trim() === '') {
    throw new ConfigurationError('the openai provider needs a model name (TINY_CLAW_MODEL)');
  }
  const tokenParameter = options.tokenParameter ?? OPENAI_DEFAULTS.tokenParameter;
  if (!['auto', 'max_tokens', 'max_completion_tokens'].includes(tokenParameter)) {
    throw new ConfigurationError(
      `invalid tokenParameter ${JSON.stringify(tokenParameter)}; accepted: auto, max_tokens, max_completion_tokens`,
    );
  }
  return {
    apiKey: options.apiKey,
    baseUrl: options.baseUrl === undefined || options.baseUrl === '' ? undefined : options.baseUrl,
    model: options.model,
    maxTokens: optionalCount('maxTokens', options.maxTokens, 1),
    tokenParameter,
    stream: options.stream ?? OPENAI_DEFAULTS.stream,
    maxRetries: count('maxRetries', options.maxRetries, OPENAI_DEFAULTS.maxRetries, 0),
    timeoutMs: count('timeoutMs', options.timeoutMs, OPENAI_DEFAULTS.timeoutMs, 1),
    idleTimeoutMs: count('idleTimeoutMs', options.idleTimeoutMs, OPENAI_DEFAULTS.idleTimeoutMs, 1),
    streamRetries: count('streamRetries', options.streamRetries, OPENAI_DEFAULTS.streamRetries, 0),
    fetch: options.fetch,
    prices: options.prices ? mergePriceTables(openaiPriceTable, options.prices) : openaiPriceTable,
  };
}

function count(name: string, value: number | undefined, fallback: number, min: number): number {
  return optionalCount(name, value, min) ?? fallback;
}

function optionalCount(name: string, value: number | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new ConfigurationError(
      `invalid ${name} ${JSON.stringify(value)}; expected an integer >= ${min}`,
    );
  }
  return value;
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
