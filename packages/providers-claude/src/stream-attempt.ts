import type {
  Message as ClaudeMessage,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages';
import { watchAttempt } from '@tiny-claw/core/utils';
import { type ClaudeTurn, fromClaudeMessage } from './response-mapping.js';
import { StreamAssembler } from './stream-assembler.js';
import { text } from './strings.js';

/**
 * One server-sent event as the SDK's decoder yields it.
 *
 * @example
 * const ping: RawSseEvent = { event: 'ping', data: '{"type":"ping"}' };
 */
export interface RawSseEvent {
  event: string | null;
  data: string;
}

/**
 * Why a stream gave no usable turn. Each is worth one more attempt.
 *
 * @example
 * const failure: StreamFailure = { reason: 'stalled', detail: 'the response stream sent nothing for 60000 ms', spoke: false };
 */
export interface StreamFailure {
  reason: 'cut' | 'stalled' | 'sse-error' | 'garbled';
  detail: string;
  /** Text already reached `onTextDelta`: asking again would show it twice. */
  spoke: boolean;
}

/**
 * The outcome of one streamed request.
 *
 * @example
 * if (result.ok) return result.turn;
 */
export type StreamAttemptResult =
  | { ok: true; turn: ClaudeTurn }
  | { ok: false; failure: StreamFailure };

/**
 * What one attempt needs; `open` and `events` are the SDK's, injected so this file loads no SDK.
 *
 * @example
 * const options: StreamAttemptOptions = { open: (signal) => client.messages.create(body, { signal }).asResponse(), events: Stream.rawEvents, idleTimeoutMs: 60_000 };
 */
export interface StreamAttemptOptions {
  /** Send the request (under the shared HTTP retry policy) and resolve with the 200 response. */
  open: (signal: AbortSignal) => Promise<Response>;
  /** Decode the response body into server-sent events. */
  events: (response: Response, controller: AbortController) => AsyncIterable<RawSseEvent>;
  idleTimeoutMs: number;
  signal?: AbortSignal | undefined;
  onTextDelta?: ((delta: string) => void) | undefined;
}

/**
 * Thrown when the caller's `onTextDelta` throws, so the provider re-throws the caller's own error
 * instead of mistaking it for a broken stream.
 *
 * @example
 * if (error instanceof TextSinkError) throw error.cause;
 */
export class TextSinkError extends Error {
  constructor(cause: unknown) {
    super('onTextDelta threw', { cause });
    this.name = 'TextSinkError';
  }
}

/**
 * Run one streamed Messages request and assemble its turn. Only a stream that reached
 * `message_stop` counts: a stream that is cut, reports `event: error`, carries an undecodable
 * event, or sends no byte for `idleTimeoutMs` yields a {@link StreamFailure} and no tool call.
 * Bytes, not events, are what counts as life, so pings (the API pings while it buffers long tool
 * input) and keep-alive comments keep a slow stream open. HTTP errors from `open` and the caller's
 * abort are thrown.
 *
 * @example
 * const result = await streamAttempt({ open, events, idleTimeoutMs: 60_000, onTextDelta: print });
 */
export async function streamAttempt(options: StreamAttemptOptions): Promise<StreamAttemptResult> {
  const { signal, idleTimeoutMs } = options;
  signal?.throwIfAborted();
  // Until the headers arrive the client's timeout governs; from then on the idle watchdog.
  const watch = watchAttempt(idleTimeoutMs, signal);
  let spoke = false;
  const onTextDelta = options.onTextDelta
    ? (delta: string) => {
        spoke = true;
        options.onTextDelta?.(delta);
      }
    : undefined;
  const failed = (failure: Omit<StreamFailure, 'spoke'>): StreamAttemptResult => ({
    ok: false,
    failure: { ...failure, spoke },
  });
  try {
    const response = await options.open(watch.signal);
    const contentType = response.headers.get('content-type') ?? '';
    if (!contentType.includes('text/event-stream') && contentType.includes('json')) {
      // Some compatible servers ignore `stream: true` and answer with one JSON message.
      return await wholeMessage(response, onTextDelta);
    }
    const tracked = watch.track(response);
    const controller = new AbortController();
    watch.signal.addEventListener('abort', () => controller.abort(watch.signal.reason), {
      once: true,
    });
    const assembler = new StreamAssembler();
    let failure: Omit<StreamFailure, 'spoke'> | undefined;
    try {
      for await (const sse of options.events(tracked, controller)) {
        failure = consume(sse, assembler, onTextDelta);
        if (failure || assembler.complete) break;
      }
    } catch (error) {
      if (error instanceof TextSinkError) throw error;
      if (!watch.stalled && !signal?.aborted)
        failure = { reason: 'cut', detail: `${text.streamCut} (${describe(error)})` };
    }
    signal?.throwIfAborted();
    if (watch.stalled)
      return failed({ reason: 'stalled', detail: text.streamStalled(idleTimeoutMs) });
    if (failure) return failed(failure);
    if (!assembler.complete) return failed({ reason: 'cut', detail: text.streamCut });
    return { ok: true, turn: assembler.turn() };
  } finally {
    watch.stop();
  }
}

/** A JSON message that arrived where a stream was asked for: mapped whole, its text sent once. */
async function wholeMessage(
  response: Response,
  onTextDelta: ((delta: string) => void) | undefined,
): Promise<StreamAttemptResult> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { ok: false, failure: { reason: 'garbled', detail: text.streamGarbled, spoke: false } };
  }
  if (
    typeof body !== 'object' ||
    body === null ||
    !Array.isArray((body as ClaudeMessage).content)
  ) {
    return { ok: false, failure: { reason: 'garbled', detail: text.streamGarbled, spoke: false } };
  }
  const turn = fromClaudeMessage(body as ClaudeMessage);
  if (turn.text && onTextDelta) {
    try {
      onTextDelta(turn.text);
    } catch (error) {
      throw new TextSinkError(error);
    }
  }
  return { ok: true, turn };
}

function consume(
  sse: RawSseEvent,
  assembler: StreamAssembler,
  onTextDelta: ((delta: string) => void) | undefined,
): Omit<StreamFailure, 'spoke'> | undefined {
  if (sse.event === 'ping' || sse.data.trim() === '') return undefined;
  let event: { type?: unknown; error?: { type?: unknown; message?: unknown } };
  try {
    event = JSON.parse(sse.data) as typeof event;
  } catch {
    if (sse.event === 'error')
      return { reason: 'sse-error', detail: text.streamError(sse.data.slice(0, 200)) };
    return { reason: 'garbled', detail: text.streamGarbled };
  }
  if (sse.event === 'error' || event.type === 'error') {
    const type = typeof event.error?.type === 'string' ? event.error.type : 'error';
    const message = typeof event.error?.message === 'string' ? `: ${event.error.message}` : '';
    return { reason: 'sse-error', detail: text.streamError(`${type}${message}`) };
  }
  if (event.type === 'ping') return undefined;
  const delta = assembler.push(event as RawMessageStreamEvent);
  if (delta && onTextDelta) {
    try {
      onTextDelta(delta);
    } catch (error) {
      throw new TextSinkError(error);
    }
  }
  return undefined;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
