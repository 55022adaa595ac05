import {
  type CompleteOptions,
  type LLMProvider,
  type LLMRequest,
  type LLMResponse,
  msg,
  ProviderError,
} from '@tiny-claw/core';
import {
  type AttemptWatch,
  IncompleteStream,
  retryPolicy,
  streamRetryPolicy,
  watchAttempt,
  withCost,
  withRetries,
} from '@tiny-claw/core/utils';
import type OpenAI from 'openai';
import { displayUrl, type ErrorContext, safeDetail, toProviderError } from './error-mapping.js';
import { type OpenAIProviderOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { buildChatParams, type ChatParams } from './request-mapping.js';
import { fromCompletion, type MappedTurn } from './response-mapping.js';
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

/** Everything one `complete` call needs, so the helpers stay small. */
interface Call {
  sdk: Sdk;
  client: OpenAI;
  params: ChatParams;
  signal: AbortSignal | undefined;
  onTextDelta: ((text: string) => void) | undefined;
  /** The attempt in flight; the client's fetch reports headers and bytes to its watchdog. */
  watch: AttemptWatch | undefined;
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
      // Left out, the SDK takes OPENAI_BASE_URL from the environment, as every OpenAI client does.
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      // Retries are ours (see resilience.ts), the same policy as every tiny-claw provider.
      maxRetries: 0,
      timeout: options.timeoutMs,
      fetch: async (input, init) => {
        const response = await baseFetch(input, init);
        return call.watch ? call.watch.track(response) : response;
      },
    });
    const call: Call = {
      sdk,
      client,
      params,
      signal,
      onTextDelta,
      watch: undefined,
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
    let attempts = 0;
    try {
      return await withRetries(
        () => {
          attempts += 1;
          return this.#withRetries(call, () => this.#streamOnce(call));
        },
        streamRetryPolicy(this.#options.streamRetries, call.signal),
      );
    } catch (error) {
      if (!(error instanceof IncompleteStream)) throw error;
      throw new ProviderError(text.incompleteStream(attempts, error.reason), {
        kind: 'incomplete_stream',
        isRetryable: true,
        cause: error.cause ?? error,
      });
    }
  }

  /** One streamed request, read to its end. Throws `IncompleteStream` unless it finished properly. */
  async #streamOnce(call: Call): Promise<MappedTurn> {
    const { signal, sdk } = call;
    const watch = watchAttempt(this.#options.idleTimeoutMs, signal);
    call.watch = watch;
    let spoke = false;
    const stalled = () => new IncompleteStream(text.streamStalled(watch.idleMs), spoke);
    const incomplete = (reason: string, cause?: unknown) =>
      new IncompleteStream(reason, spoke, cause);
    try {
      const attemptSignal = watch.signal;
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
        if (watch.stalled && !signal?.aborted) throw stalled();
        throw error;
      }
      const assembler = new ChatStreamAssembler();
      let callbackFailure: { error: unknown } | undefined;
      try {
        for await (const chunk of stream) {
          const streamError = inStreamError(chunk);
          if (streamError !== undefined) {
            throw incomplete(text.streamErrored(scrub(streamError, call)));
          }
          const delta = assembler.push(chunk as WireCompletion);
          if (delta === undefined || !call.onTextDelta) continue;
          spoke = true;
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
        if (watch.stalled) throw stalled();
        const detail = scrub(error instanceof Error ? error.message : String(error), call);
        const reason =
          error instanceof sdk.APIError && !(error instanceof sdk.APIConnectionError)
            ? text.streamErrored(detail)
            : text.streamBroken(detail);
        throw incomplete(reason, error);
      }
      if (callbackFailure) throw callbackFailure.error;
      // The SDK ends iteration quietly when its request is aborted, so check why it ended.
      signal?.throwIfAborted();
      if (assembler.complete) return assembler.result();
      if (watch.stalled) throw stalled();
      throw incomplete(text.streamEndedEarly);
    } finally {
      watch.stop();
      call.watch = undefined;
    }
  }

  /** Run `attempt` under the shared HTTP retry policy; the final failure becomes a `ProviderError`. */
  async #withRetries<T>(call: Call, attempt: () => Promise<T>): Promise<T> {
    const { sdk, signal } = call;
    let retries = 0;
    try {
      return await withRetries(
        (made) => {
          retries = made;
          return attempt();
        },
        retryPolicy(this.#options.maxRetries, signal, sdk),
      );
    } catch (error) {
      // An abort wins over whatever the SDK made of it.
      signal?.throwIfAborted();
      if (error instanceof IncompleteStream || error instanceof ProviderError) throw error;
      throw toProviderError(error, sdk, { ...call.errorContext, retries });
    }
  }
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
