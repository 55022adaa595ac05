import {
  type CompleteOptions,
  type LLMProvider,
  type LLMRequest,
  type LLMResponse,
  msg,
  ProviderError,
} from '@tiny-claw/core';
import {
  backoffMs,
  IdleWatchdog,
  retryDelayMs,
  sleep,
  withActivity,
  withCost,
} from '@tiny-claw/core/utils';
import type OpenAI from 'openai';
import { displayUrl, type ErrorContext, safeDetail, toProviderError } from './error-mapping.js';
import { type OpenAIProviderOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { buildChatParams, type ChatParams } from './request-mapping.js';
import { fromCompletion, type MappedTurn } from './response-mapping.js';
import { shouldRetryStatus } from './retry-policy.js';
import { ChatStreamAssembler } from './stream-assembler.js';
import { text } from './strings.js';
import type { WireCompletion } from './wire-types.js';

type Sdk = typeof import('openai');

let sdkModule: Promise<Sdk> | undefined;

/** The SDK costs ~70 ms to import, so it is loaded on the first call, never at start-up. */
function loadSdk(): Promise<Sdk> {
  sdkModule ??= import('openai').catch((error: unknown) => {
    sdkModule = undefined;
    throw error;
  });
  return sdkModule;
}

/** A stream attempt that must not be used; retried up to `streamRetries` times. */
class IncompleteStream extends Error {
  readonly reason: string;
  constructor(reason: string, cause?: unknown) {
    super(reason, cause === undefined ? undefined : { cause });
    this.reason = reason;
  }
}

/** Everything one `complete` call needs, so the helpers stay small. */
interface Call {
  sdk: Sdk;
  client: OpenAI;
  params: ChatParams;
  signal: AbortSignal | undefined;
  onTextDelta: ((text: string) => void) | undefined;
  /** The watchdog of the attempt in flight; the client's fetch reports bytes to it. */
  watchdog: IdleWatchdog | undefined;
  errorContext: Omit<ErrorContext, 'retries'>;
}

/**
 * An `LLMProvider` for OpenAI and any OpenAI-compatible server (Chat Completions), on the
 * official `openai` SDK. Streams by default; retries throttled, failed and incomplete requests;
 * never returns a tool call from a stream that did not finish; throws `ProviderError` with a
 * `kind` the loop can act on, and rethrows the signal's reason when the call is aborted. A
 * response with usage is priced (`costUsd`) from `openaiPriceTable` and the `prices` option.
 *
 * @example
 * const provider = new OpenAIProvider({ apiKey: process.env.OPENAI_API_KEY ?? '', model: 'gpt-4.1-mini' });
 * const response = await provider.complete(
 *   { messages: [{ role: 'user', content: 'Say hi' }], tools: [], toolChoice: 'auto' },
 *   { onTextDelta: (delta) => process.stdout.write(delta) },
 * );
 */
export class OpenAIProvider implements LLMProvider {
  readonly name = 'openai';
  readonly model: string;
  readonly #options: ResolvedOptions;

  constructor(options: OpenAIProviderOptions) {
    this.#options = resolveOptions(options);
    this.model = this.#options.model;
  }

  /** Ask the model for one assistant turn. */
  async complete(request: LLMRequest, options: CompleteOptions = {}): Promise<LLMResponse> {
    const signal = options.signal ?? request.signal;
    signal?.throwIfAborted();
    // Mapping errors (a tool result without an id) surface before any network traffic.
    const params = buildChatParams(request, this.#options);
    const sdk = await loadSdk();
    signal?.throwIfAborted();
    const call = this.#startCall(sdk, params, signal, options.onTextDelta);
    const turn = this.#options.stream ? await this.#streamTurn(call) : await this.#jsonTurn(call);
    const response: LLMResponse = {
      message: msg.assistant(turn.text, turn.toolCalls),
      provider: this.name,
      model: turn.model ?? this.model,
    };
    if (turn.usage) response.usage = turn.usage;
    if (turn.stopReason !== undefined) response.stopReason = turn.stopReason;
    return withCost(response, this.#options.prices);
  }

  #startCall(
    sdk: Sdk,
    params: ChatParams,
    signal: AbortSignal | undefined,
    onTextDelta: ((text: string) => void) | undefined,
  ): Call {
    const options = this.#options;
    const baseFetch = options.fetch ?? globalThis.fetch;
    // One client per call (≈ 0.03 ms) so its fetch can feed this call's idle watchdog.
    const client = new sdk.OpenAI({
      apiKey: options.apiKey,
      ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
      // Retries are ours (see retry-policy.ts): capped waits, abortable sleeps.
      maxRetries: 0,
      timeout: options.timeoutMs,
      fetch: withActivity(baseFetch, () => call.watchdog?.touch()),
    });
    const call: Call = {
      sdk,
      client,
      params,
      signal,
      onTextDelta,
      watchdog: undefined,
      errorContext: {
        apiKey: options.apiKey,
        model: options.model,
        baseUrl: safeDetail(displayUrl(client.baseURL), options.apiKey),
        timeoutMs: options.timeoutMs,
      },
    };
    return call;
  }

  async #jsonTurn(call: Call): Promise<MappedTurn> {
    return this.#withRetries(call, async () => {
      const body: unknown = await call.client.chat.completions
        .create({ ...call.params, stream: false }, { signal: call.signal ?? null })
        .catch((error: unknown) => {
          // A 200 whose JSON body does not parse: nothing the SDK would retry, nothing usable.
          if (error instanceof SyntaxError) {
            throw new ProviderError(text.invalidResponse(text.notJson), {
              kind: 'invalid_response',
              cause: error,
            });
          }
          throw error;
        });
      const turn = fromCompletion(body as WireCompletion);
      if (typeof turn === 'string') {
        throw new ProviderError(text.invalidResponse(turn), { kind: 'invalid_response' });
      }
      return turn;
    });
  }

  async #streamTurn(call: Call): Promise<MappedTurn> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.#withRetries(call, () => this.#streamOnce(call));
      } catch (error) {
        if (!(error instanceof IncompleteStream)) throw error;
        if (attempt > this.#options.streamRetries) {
          throw new ProviderError(text.incompleteStream(attempt, error.reason), {
            kind: 'incomplete_stream',
            isRetryable: true,
            cause: error.cause ?? error,
          });
        }
        await sleep(backoffMs(attempt - 1), call.signal);
      }
    }
  }

  /** One streamed request, read to its end. Throws `IncompleteStream` unless it finished properly. */
  async #streamOnce(call: Call): Promise<MappedTurn> {
    const { signal, sdk } = call;
    const watchdog = new IdleWatchdog(this.#options.idleTimeoutMs);
    call.watchdog = watchdog;
    const stalled = () => new IncompleteStream(text.streamStalled(watchdog.idleMs));
    try {
      const attemptSignal = signal ? AbortSignal.any([signal, watchdog.signal]) : watchdog.signal;
      let stream: AsyncIterable<unknown>;
      try {
        const { data, response } = await call.client.chat.completions
          .create(
            { ...call.params, stream: true, stream_options: { include_usage: true } },
            { signal: attemptSignal },
          )
          .withResponse();
        const contentType = response.headers.get('content-type') ?? '';
        if (!contentType.includes('text/event-stream') && contentType.includes('json')) {
          // Some compatible servers ignore `stream: true` and answer with one JSON completion.
          return await wholeCompletion(response, call);
        }
        stream = data;
      } catch (error) {
        if (watchdog.fired && !signal?.aborted) throw stalled();
        throw error;
      }
      const assembler = new ChatStreamAssembler();
      let callbackFailure: { error: unknown } | undefined;
      try {
        for await (const chunk of stream) {
          const streamError = inStreamError(chunk);
          if (streamError !== undefined) {
            throw new IncompleteStream(text.streamErrored(scrub(streamError, call)));
          }
          const delta = assembler.push(chunk as WireCompletion);
          if (delta === undefined || !call.onTextDelta) continue;
          try {
            call.onTextDelta(delta);
          } catch (error) {
            callbackFailure = { error };
            break;
          }
        }
      } catch (error) {
        signal?.throwIfAborted();
        // Once the finish_reason chunk is in, the answer is whole; a failure while waiting for
        // the usage chunk or [DONE] costs the usage figures, not a second paid turn.
        if (assembler.complete) return assembler.result();
        if (error instanceof IncompleteStream) throw error;
        if (watchdog.fired) throw stalled();
        const detail = scrub(error instanceof Error ? error.message : String(error), call);
        const reason =
          error instanceof sdk.APIError && !(error instanceof sdk.APIConnectionError)
            ? text.streamErrored(detail)
            : text.streamBroken(detail);
        throw new IncompleteStream(reason, error);
      }
      if (callbackFailure) throw callbackFailure.error;
      // The SDK ends iteration quietly when its request is aborted, so check why it ended.
      signal?.throwIfAborted();
      if (assembler.complete) return assembler.result();
      if (watchdog.fired) throw stalled();
      throw new IncompleteStream(text.streamEndedEarly);
    } finally {
      watchdog.stop();
      call.watchdog = undefined;
    }
  }

  /** Run `attempt`, retrying the HTTP failures the SDK would retry, with the shared wait policy. */
  async #withRetries<T>(call: Call, attempt: () => Promise<T>): Promise<T> {
    const { sdk, signal } = call;
    for (let retries = 0; ; retries += 1) {
      try {
        return await attempt();
      } catch (error) {
        // An abort wins over whatever the SDK made of it.
        signal?.throwIfAborted();
        if (error instanceof IncompleteStream || error instanceof ProviderError) throw error;
        if (retries >= this.#options.maxRetries || !isRetryable(error, sdk)) {
          throw toProviderError(error, sdk, { ...call.errorContext, retries });
        }
        const headers = error instanceof sdk.APIError ? error.headers : undefined;
        await sleep(retryDelayMs(headers, retries), signal);
      }
    }
  }
}

function isRetryable(error: unknown, sdk: Sdk): boolean {
  if (error instanceof sdk.APIUserAbortError) return false;
  if (error instanceof sdk.APIConnectionError) return true;
  if (error instanceof sdk.APIError && typeof error.status === 'number') {
    return shouldRetryStatus(error.status, error.headers);
  }
  return false;
}

/**
 * An error event the SDK passed through as data. It throws for `{"error": …}` itself, but not for
 * a chunk like `{"type":"error", …}` or `{"type":"overloaded_error"}` that some proxies send.
 */
function inStreamError(chunk: unknown): string | undefined {
  if (typeof chunk !== 'object' || chunk === null) return 'a chunk that is not an object';
  const { choices, type, error, message } = chunk as WireCompletion & { message?: unknown };
  if (Array.isArray(choices)) return undefined;
  if (error !== undefined && error !== null) return JSON.stringify(error);
  if (typeof type === 'string' && /error/i.test(type)) {
    return typeof message === 'string' ? `${type}: ${message}` : type;
  }
  return undefined;
}

/** A JSON completion that arrived where a stream was asked for: mapped whole, its text sent once. */
async function wholeCompletion(response: Response, call: Call): Promise<MappedTurn> {
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new ProviderError(text.invalidResponse(text.notJson), {
      kind: 'invalid_response',
      cause: error,
    });
  }
  const turn = fromCompletion(body as WireCompletion);
  if (typeof turn === 'string') {
    throw new ProviderError(text.invalidResponse(turn), { kind: 'invalid_response' });
  }
  if (turn.text) call.onTextDelta?.(turn.text);
  return turn;
}

function scrub(detail: string, call: Call): string {
  return safeDetail(detail, call.errorContext.apiKey);
}
