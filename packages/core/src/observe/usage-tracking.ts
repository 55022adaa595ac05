import { performance } from 'node:perf_hooks';
import { errorMessage, type ProviderError, TinyClawError } from '../errors.js';
import type { Message } from '../messages.js';
import type {
  CompleteOptions,
  LLMProvider,
  LLMRequest,
  LLMResponse,
  LLMUsage,
} from '../provider.js';
import { currentModelCallScope, type ModelCallScope } from './call-scope.js';
import { type Logger, nullLogger } from './logger.js';
import { defaultPriceTable, type PriceTable, priceCall } from './price-table.js';
import type { SpanAttributes, SpanHandle, SpanStatus, Tracer } from './tracer.js';
import type { UsageEvent, UsageRecorder } from './usage.js';

/**
 * What {@link UsageTrackingProvider} records with, and where it reports its own trouble.
 *
 * @example
 * const options: UsageTrackingOptions = { recorder: new FileUsageRecorder(stateDir), logger };
 */
export interface UsageTrackingOptions {
  recorder: UsageRecorder;
  /** Prices in USD per 1M tokens. Default {@link defaultPriceTable}. */
  prices?: PriceTable;
  /** Opens an `llm.call` span under the scope's `parentSpan` when both are present. */
  tracer?: Tracer;
  /** Receives `usage recorder failed: …` warnings. */
  logger?: Logger;
}

/**
 * Wraps a provider so every call is timed, priced and recorded: one {@link UsageEvent} per call,
 * success or failure, with the session, run, step and caller taken from the current model-call
 * scope. Never records prompt or answer text. Errors of the wrapped provider are re-thrown
 * unchanged; errors of the recorder are logged and swallowed, so usage tracking cannot fail a run.
 *
 * @example
 * const provider = new UsageTrackingProvider(inner, {
 *   recorder: new FileUsageRecorder(stateDir),
 *   prices: mergePriceTables(defaultPriceTable, userPrices),
 *   tracer,
 *   logger,
 * });
 * const response = await provider.complete(request); // response.costUsd is set when priced
 */
export class UsageTrackingProvider implements LLMProvider {
  readonly #inner: LLMProvider;
  readonly #recorder: UsageRecorder;
  readonly #prices: PriceTable;
  readonly #tracer: Tracer | undefined;
  readonly #logger: Logger;

  constructor(inner: LLMProvider, options: UsageTrackingOptions) {
    this.#inner = inner;
    this.#recorder = options.recorder;
    this.#prices = options.prices ?? defaultPriceTable;
    this.#tracer = options.tracer;
    this.#logger = options.logger ?? nullLogger;
  }

  /** The wrapped provider's name: tracking is invisible to whoever picks providers by name. */
  get name(): string {
    return this.#inner.name;
  }

  /** The wrapped provider's configured model. */
  get model(): string | undefined {
    return this.#inner.model;
  }

  /**
   * Call the wrapped provider and record the call.
   *
   * @example
   * const response = await withModelCallScope(scope, () => provider.complete(request, { signal }));
   */
  async complete(request: LLMRequest, options?: CompleteOptions): Promise<LLMResponse> {
    const scope = currentModelCallScope();
    const span = this.#startSpan(scope, request);
    const timestamp = new Date().toISOString();
    const started = performance.now();
    let response: LLMResponse;
    try {
      response = await this.#inner.complete(request, options);
    } catch (error) {
      const latencyMs = elapsedMs(started);
      const errorType = errorTypeOf(error);
      const cancelled =
        request.signal?.aborted === true ||
        options?.signal?.aborted === true ||
        (TinyClawError.isInstance(error) && error.code === 'cancelled');
      this.#endSpan(
        span,
        { latency_ms: latencyMs, error_type: errorType },
        cancelled ? 'cancelled' : 'error',
      );
      await this.#record({
        ...scopeFields(scope, timestamp),
        provider: this.#inner.name,
        model: null,
        usage: null,
        costUsd: null,
        latencyMs,
        toolCalls: null,
        textChars: null,
        errorType,
      });
      throw error;
    }

    const latencyMs = elapsedMs(started);
    const model = response.model ?? this.#inner.model ?? null;
    const usage = response.usage ? pickUsage(response.usage) : null;
    // A cost the provider reported itself is more accurate than a list-price estimate.
    const costUsd =
      response.costUsd ??
      (usage && model !== null ? priceCall(this.#prices, model, usage) : undefined);
    const toolCalls = response.message.toolCalls?.length ?? 0;
    const textChars = response.message.content.length;
    this.#endSpan(
      span,
      {
        latency_ms: latencyMs,
        provider: response.provider,
        model,
        input_tokens: usage?.inputTokens,
        output_tokens: usage?.outputTokens,
        total_tokens: usage?.totalTokens,
        cache_read_tokens: usage?.cacheReadTokens,
        cache_write_tokens: usage?.cacheWriteTokens,
        reasoning_tokens: usage?.reasoningTokens,
        cost_usd: costUsd,
        tool_calls: toolCalls,
        text_chars: textChars,
      },
      'ok',
      { content: response.message.content, toolCalls: response.message.toolCalls ?? [] },
    );
    await this.#record({
      ...scopeFields(scope, timestamp),
      provider: response.provider,
      model,
      usage,
      costUsd: costUsd ?? null,
      latencyMs,
      toolCalls,
      textChars,
      errorType: null,
    });
    return costUsd === undefined ? response : { ...response, costUsd };
  }

  #startSpan(scope: ModelCallScope | undefined, request: LLMRequest): SpanHandle | undefined {
    if (!this.#tracer || !scope?.parentSpan) return undefined;
    try {
      const span = this.#tracer.startSpan(
        'llm.call',
        `llm.${this.#inner.name}`,
        {
          provider: this.#inner.name,
          message_count: request.messages.length,
          tool_choice: request.toolChoice,
          visible_tools: request.tools.map((tool) => tool.name).join(','),
        },
        scope.parentSpan,
      );
      // The tracer decides what of it is kept (hashes only, or a redacted copy).
      span.recordPayload('llm_request', newMessages(request.messages));
      return span;
    } catch (error) {
      // Tracing is observation only: a broken tracer must not cost the model call.
      this.#logger.warn(`llm.call span could not be started: ${errorMessage(error)}`);
      return undefined;
    }
  }

  #endSpan(
    span: SpanHandle | undefined,
    attributes: SpanAttributes,
    status: SpanStatus,
    response?: { content: string; toolCalls: unknown[] },
  ): void {
    if (!span) return;
    try {
      span.setAttributes(attributes);
      if (response) span.recordPayload('llm_response', response);
      span.end(status);
    } catch (error) {
      this.#logger.warn(`llm.call span could not be ended: ${errorMessage(error)}`);
    }
  }

  async #record(event: UsageEvent): Promise<void> {
    try {
      await this.#recorder.record(event);
    } catch (error) {
      this.#logger.warn(`usage recorder failed: ${errorMessage(error)}`);
    }
  }
}

function scopeFields(scope: ModelCallScope | undefined, timestamp: string) {
  return {
    schemaVersion: 1 as const,
    timestamp,
    sessionKey: scope?.sessionKey ?? null,
    runId: scope?.runId ?? null,
    mode: scope?.mode ?? null,
    phase: scope?.phase ?? null,
    step: scope?.step ?? null,
    caller: scope?.caller ?? null,
  };
}

/**
 * The messages after the last assistant turn: what is new to the model on this call. Capturing the
 * whole history on every call would make a trace grow with the square of the run's length.
 */
function newMessages(messages: readonly Message[]): Message[] {
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  return messages.slice(lastAssistant + 1);
}

/** Only the six known counts: a provider's extra fields must not ride along into the file. */
function pickUsage(usage: LLMUsage): LLMUsage {
  const picked: LLMUsage = {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens,
  };
  for (const key of ['cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
    if (usage[key] !== undefined) picked[key] = usage[key];
  }
  return picked;
}

function elapsedMs(started: number): number {
  return Math.max(0, Math.round(performance.now() - started));
}

// Only names, never messages: a message may quote the prompt or the provider's answer.
const SAFE_ERROR_TYPE = /^[\w.$:-]{1,100}$/;

/**
 * The error's class-like name for the usage file: the `kind` of a `ProviderError` (`rate_limit`,
 * `context_length`, …), else the error's `name`, else `unknown`.
 */
function errorTypeOf(error: unknown): string {
  if (TinyClawError.isInstance(error) && error.code === 'provider') {
    return (error as ProviderError).kind;
  }
  const name = error instanceof Error ? error.name : undefined;
  return typeof name === 'string' && SAFE_ERROR_TYPE.test(name) ? name : 'unknown';
}
