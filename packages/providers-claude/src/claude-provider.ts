import type { Anthropic } from '@anthropic-ai/sdk';
import {
  type CompleteOptions,
  type LLMProvider,
  type LLMRequest,
  type LLMResponse,
  ProviderError,
} from '@tiny-claw/core';
import {
  IncompleteStream,
  type RetryOptions,
  retryPolicy,
  streamRetryPolicy,
  withCost,
  withRetries,
} from '@tiny-claw/core/utils';
import { type ErrorContext, safeMessage, toProviderError } from './error-mapping.js';
import { type ClaudeProviderOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { type ClaudeRequestBody, toClaudeRequest } from './request-mapping.js';
import { type ClaudeTurn, fromClaudeMessage, toLLMResponse } from './response-mapping.js';
import { type RawSseEvent, streamAttempt, TextSinkError } from './stream-attempt.js';
import { text } from './strings.js';

const DEFAULT_BASE_URL = 'https://api.anthropic.com';

interface Sdk {
  client: Anthropic;
  events: (response: Response, controller: AbortController) => AsyncIterable<RawSseEvent>;
  /** The shared HTTP retry policy, told the SDK's error classes. */
  http: (signal: AbortSignal | undefined) => RetryOptions;
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
  readonly #options: ResolvedOptions;
  #sdk: Promise<Sdk> | undefined;

  constructor(options: ClaudeProviderOptions) {
    this.#options = resolveOptions(options);
    this.model = this.#options.model;
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
    const body = toClaudeRequest(request, {
      model: this.model,
      maxTokens: this.#options.maxTokens,
    });
    let sdk: Sdk | undefined;
    try {
      sdk = await this.#loadSdk();
      const client = sdk.client;
      const turn = this.#options.stream
        ? await this.#streamTurn(sdk, body, signal, options.onTextDelta)
        : fromClaudeMessage(
            await withRetries(
              () => client.messages.create({ ...body, stream: false }, signal ? { signal } : {}),
              sdk.http(signal),
            ),
          );
      return withCost(toLLMResponse(turn, this.model), this.#options.prices);
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
    let attempts = 0;
    try {
      return await withRetries(
        async () => {
          attempts += 1;
          const result = await streamAttempt({
            open: (attemptSignal) =>
              withRetries(
                () =>
                  sdk.client.messages
                    .create({ ...body, stream: true }, { signal: attemptSignal })
                    .asResponse(),
                sdk.http(attemptSignal),
              ),
            events: sdk.events,
            idleTimeoutMs: this.#options.idleTimeoutMs,
            signal,
            onTextDelta,
          });
          if (result.ok) return result.turn;
          throw new IncompleteStream(result.failure.detail, result.failure.spoke);
        },
        streamRetryPolicy(this.#options.streamRetries, signal),
      );
    } catch (error) {
      if (!(error instanceof IncompleteStream)) throw error;
      const detail = `${text.incompleteStream} — ${error.reason}; ${text.streamAttempts(attempts)}`;
      throw new ProviderError(
        safeMessage(`${text.failedPrefix} ${detail}`, [this.#options.apiKey]),
        {
          kind: 'incomplete_stream',
          isRetryable: true,
        },
      );
    }
  }

  #loadSdk(): Promise<Sdk> {
    this.#sdk ??= (async () => {
      const [sdkModule, { Stream }] = await Promise.all([
        import('@anthropic-ai/sdk'),
        import('@anthropic-ai/sdk/core/streaming'),
      ]);
      const options = this.#options;
      const client = new sdkModule.Anthropic({
        apiKey: options.apiKey,
        // Left out, the SDK takes ANTHROPIC_BASE_URL from the environment, as every Anthropic client does.
        ...(options.baseURL ? { baseURL: options.baseURL } : {}),
        // Retries are ours (see resilience.ts), the same policy as every tiny-claw provider.
        maxRetries: 0,
        timeout: options.timeoutMs,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
      return {
        client,
        events: (response, controller) => Stream.rawEvents(response, controller),
        http: (signal) => retryPolicy(options.maxRetries, signal, sdkModule),
      };
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
      baseUrl: sdk?.client.baseURL ?? this.#options.baseURL ?? DEFAULT_BASE_URL,
      timeoutMs: this.#options.timeoutMs,
      secrets: [this.#options.apiKey],
    };
  }
}
