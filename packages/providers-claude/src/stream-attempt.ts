import type {
  Message as ClaudeMessage,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages';
import { IdleWatchdog, withBodyActivity } from '@tiny-claw/core/utils';
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
 * const failure: StreamFailure = { reason: 'stalled', detail: 'the response stream sent nothing for 60000 ms' };
 */
export interface StreamFailure {
  reason: 'cut' | 'stalled' | 'sse-error' | 'garbled';
  detail: string;
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
  /** Send the request (the SDK applies its HTTP retries) and resolve with the 200 response. */
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
  const controller = new AbortController();
  const forwardAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forwardAbort, { once: true });
  let watchdog: IdleWatchdog | undefined;
  try {
    const response = await options.open(controller.signal);
    const contentType = response.headers.get('content-type') ?? '';
    if (!contentType.includes('text/event-stream') && contentType.includes('json')) {
      // Some compatible servers ignore `stream: true` and answer with one JSON message.
      return await wholeMessage(response, options.onTextDelta);
    }
    // Armed only once headers arrived: before that the SDK's own timeout and retries govern.
    const idle = new IdleWatchdog(idleTimeoutMs);
    watchdog = idle;
    idle.signal.addEventListener('abort', () => controller.abort(idle.signal.reason), {
      once: true,
    });
    const tracked = withBodyActivity(response, () => idle.touch());
    const stalled = () => idle.fired;
    const assembler = new StreamAssembler();
    let failure: StreamFailure | undefined;
    try {
      for await (const sse of options.events(tracked, controller)) {
        failure = consume(sse, assembler, options.onTextDelta);
        if (failure || assembler.complete) break;
      }
    } catch (error) {
      if (error instanceof TextSinkError) throw error;
      if (!stalled() && !signal?.aborted)
        failure = { reason: 'cut', detail: `${text.streamCut} (${describe(error)})` };
    }
    signal?.throwIfAborted();
    if (stalled())
      return {
        ok: false,
        failure: { reason: 'stalled', detail: text.streamStalled(idleTimeoutMs) },
      };
    if (failure) return { ok: false, failure };
    if (!assembler.complete)
      return { ok: false, failure: { reason: 'cut', detail: text.streamCut } };
    return { ok: true, turn: assembler.turn() };
  } finally {
    watchdog?.stop();
    signal?.removeEventListener('abort', forwardAbort);
    // Releases the socket when we stopped reading early; a no-op once the body was read to its end.
    controller.abort();
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
    return { ok: false, failure: { reason: 'garbled', detail: text.streamGarbled } };
  }
  if (
    typeof body !== 'object' ||
    body === null ||
    !Array.isArray((body as ClaudeMessage).content)
  ) {
    return { ok: false, failure: { reason: 'garbled', detail: text.streamGarbled } };
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
): StreamFailure | undefined {
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
