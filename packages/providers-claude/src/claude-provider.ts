import type { Anthropic } from '@anthropic-ai/sdk';
import {
  type CompleteOptions,
  ConfigurationError,
  type LLMProvider,
  type LLMRequest,
  type LLMResponse,
  mergePriceTables,
  type PriceTable,
  ProviderError,
} from '@tiny-claw/core';
import { backoffMs, sleep, withCost } from '@tiny-claw/core/utils';
import { type ErrorContext, safeMessage, toProviderError } from './error-mapping.js';
import { claudePriceTable } from './price-table.js';
import { type ClaudeRequestBody, toClaudeRequest } from './request-mapping.js';
import { type ClaudeTurn, fromClaudeMessage, toLLMResponse } from './response-mapping.js';
import { capRetryAfter } from './retry-after-fetch.js';
import {
  type RawSseEvent,
  type StreamFailure,
  streamAttempt,
  TextSinkError,
} from './stream-attempt.js';
import { text } from './strings.js';

/**
 * How to reach Claude and how hard to try.
 *
 * @example
 * const options: ClaudeProviderOptions = { apiKey, model: 'claude-sonnet-4-5', maxTokens: 4096, idleTimeoutMs: 120_000 };
 */
export interface ClaudeProviderOptions {
  /** Anthropic API key (`ANTHROPIC_API_KEY`). Never appears in any error message. */
  apiKey: string;
  /** API root, e.g. a proxy (`ANTHROPIC_BASE_URL`). Default: the SDK's (`ANTHROPIC_BASE_URL`, else api.anthropic.com). */
  baseUrl?: string;
  /** Model id, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** `max_tokens` of every request that does not set its own `maxTokens`. */
  maxTokens: number;
  /** Stream responses (text deltas reach `onTextDelta` as they arrive). Default `true`. */
  stream?: boolean;
  /**
   * SDK retries of 408/409/429/5xx/connection failures; a `retry-after` is honoured up to 8 s, cut
   * to 8 s up to 60 s and ignored beyond. Default 2.
   */
  maxRetries?: number;
  /** Per HTTP attempt, until the response headers arrive. Default 600 000 (10 min). */
  timeoutMs?: number;
  /** A stream silent for this long (pings count as activity) is abandoned. Default 60 000. */
  idleTimeoutMs?: number;
  /** Extra attempts after a cut, stalled or errored stream. Default 1. */
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
 * Default of {@link ClaudeProviderOptions.maxRetries} (the SDK's own default).
 *
 * @example
 * new ClaudeProvider({ ...options, maxRetries: DEFAULT_MAX_RETRIES + 2 });
 */
export const DEFAULT_MAX_RETRIES = 2;
/**
 * Default of {@link ClaudeProviderOptions.streamRetries}.
 *
 * @example
 * new ClaudeProvider({ ...options, streamRetries: DEFAULT_STREAM_RETRIES + 1 });
 */
export const DEFAULT_STREAM_RETRIES = 1;

const DEFAULT_BASE_URL = 'https://api.anthropic.com';

interface Sdk {
  client: Anthropic;
  events: (response: Response, controller: AbortController) => AsyncIterable<RawSseEvent>;
}

/**
 * An `LLMProvider` for Anthropic's Messages API on the official `@anthropic-ai/sdk`. The SDK is
 * imported on the first call, so constructing a provider (or printing `--help`) loads no SDK.
 *
 * Every failure is a `ProviderError` whose message starts with `Claude request failed:` and whose
 * `kind` tells the loop what happened; an aborted call throws the signal's reason instead. A
 * streamed turn is used only once it reached `message_stop`; a cut, silent or errored stream is
 * retried `streamRetries` times and then fails with kind `incomplete_stream`, never with tool calls.
 * A response with usage is priced (`costUsd`) from `claudePriceTable` and the `prices` option.
 *
 * @example
 * const claude = new ClaudeProvider({ apiKey: process.env.ANTHROPIC_API_KEY ?? '', model: 'claude-sonnet-4-5', maxTokens: 4096 });
 * const reply = await claude.complete({ messages: [msg.user('hi')], tools: [], toolChoice: 'auto' }, { onTextDelta: (t) => process.stdout.write(t) });
 */
export class ClaudeProvider implements LLMProvider {
  readonly name = 'claude';
  readonly model: string;
  readonly #apiKey: string;
  readonly #baseUrl: string | undefined;
  readonly #maxTokens: number;
  readonly #stream: boolean;
  readonly #maxRetries: number;
  readonly #timeoutMs: number;
  readonly #idleTimeoutMs: number;
  readonly #streamRetries: number;
  readonly #fetch: typeof fetch | undefined;
  readonly #prices: PriceTable;
  #sdk: Promise<Sdk> | undefined;

  constructor(options: ClaudeProviderOptions) {
    if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
      throw new ConfigurationError(text.missingApiKey);
    }
    if (typeof options.model !== 'string' || options.model.trim() === '') {
      throw new ConfigurationError(text.missingModel);
    }
    this.#apiKey = options.apiKey;
    this.model = options.model;
    this.#baseUrl =
      options.baseUrl === undefined || options.baseUrl === '' ? undefined : options.baseUrl;
    this.#maxTokens = integer('maxTokens', options.maxTokens, 1);
    this.#stream = options.stream ?? true;
    this.#maxRetries = integer('maxRetries', options.maxRetries ?? DEFAULT_MAX_RETRIES, 0);
    this.#timeoutMs = integer('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1);
    this.#idleTimeoutMs = integer(
      'idleTimeoutMs',
      options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      1,
    );
    this.#streamRetries = integer(
      'streamRetries',
      options.streamRetries ?? DEFAULT_STREAM_RETRIES,
      0,
    );
    this.#fetch = options.fetch;
    this.#prices = options.prices
      ? mergePriceTables(claudePriceTable, options.prices)
      : claudePriceTable;
  }

  /**
   * Send one request. `options.signal` (else `request.signal`) cancels it, SDK retries included.
   *
   * @example
   * const { message, usage } = await claude.complete(request, { signal, onTextDelta });
   */
  async complete(request: LLMRequest, options: CompleteOptions = {}): Promise<LLMResponse> {
    const signal = options.signal ?? request.signal;
    signal?.throwIfAborted();
    const body = toClaudeRequest(request, { model: this.model, maxTokens: this.#maxTokens });
    let sdk: Sdk | undefined;
    try {
      sdk = await this.#loadSdk();
      const turn = this.#stream
        ? await this.#streamTurn(sdk, body, signal, options.onTextDelta)
        : fromClaudeMessage(
            await sdk.client.messages.create({ ...body, stream: false }, signal ? { signal } : {}),
          );
      return withCost(toLLMResponse(turn, this.model), this.#prices);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof TextSinkError) throw error.cause;
      throw toProviderError(error, this.#errorContext(sdk));
    }
  }

  async #streamTurn(
    sdk: Sdk,
    body: ClaudeRequestBody,
    signal: AbortSignal | undefined,
    onTextDelta: ((delta: string) => void) | undefined,
  ): Promise<ClaudeTurn> {
    const attempts = 1 + this.#streamRetries;
    let failure: StreamFailure | undefined;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      // The same backoff as between HTTP retries, so an overloaded server gets a moment.
      if (attempt > 1) await sleep(backoffMs(attempt - 2), signal);
      const result = await streamAttempt({
        open: (attemptSignal) =>
          sdk.client.messages
            .create({ ...body, stream: true }, { signal: attemptSignal })
            .asResponse(),
        events: sdk.events,
        idleTimeoutMs: this.#idleTimeoutMs,
        signal,
        onTextDelta,
      });
      if (result.ok) return result.turn;
      failure = result.failure;
    }
    const reason = failure?.detail ?? text.streamCut;
    const detail = `${text.incompleteStream} — ${reason}; ${text.streamAttempts(attempts)}`;
    throw new ProviderError(safeMessage(`${text.failedPrefix} ${detail}`, [this.#apiKey]), {
      kind: 'incomplete_stream',
      isRetryable: true,
    });
  }

  #loadSdk(): Promise<Sdk> {
    this.#sdk ??= (async () => {
      const [{ Anthropic: Client }, { Stream }] = await Promise.all([
        import('@anthropic-ai/sdk'),
        import('@anthropic-ai/sdk/core/streaming'),
      ]);
      const client = new Client({
        apiKey: this.#apiKey,
        ...(this.#baseUrl ? { baseURL: this.#baseUrl } : {}),
        maxRetries: this.#maxRetries,
        timeout: this.#timeoutMs,
        fetch: capRetryAfter(this.#fetch ?? globalThis.fetch),
      });
      return { client, events: (response, controller) => Stream.rawEvents(response, controller) };
    })();
    // A failed import must not poison every later call.
    this.#sdk.catch(() => {
      this.#sdk = undefined;
    });
    return this.#sdk;
  }

  #errorContext(sdk: Sdk | undefined): ErrorContext {
    return {
      model: this.model,
      baseUrl: sdk?.client.baseURL ?? this.#baseUrl ?? DEFAULT_BASE_URL,
      timeoutMs: this.#timeoutMs,
      secrets: [this.#apiKey],
    };
  }
}

function integer(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new ConfigurationError(text.invalidNumber(name, value, `an integer ≥ ${min}`));
  }
  return value;
}
