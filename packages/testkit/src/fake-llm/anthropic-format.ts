import type { SseEvent, StreamPlan } from './sse.js';
import { chunkText, type FakeUsage, type ResolvedToolCall, type ResolvedTurn } from './steps.js';

const STOP_REASONS: Record<string, string> = {
  length: 'max_tokens',
  tool_calls: 'tool_use',
  stop: 'end_turn',
};

/**
 * The Messages `stop_reason` of a turn: the override (OpenAI names translated), else `tool_use`
 * when it calls tools, else `end_turn`.
 *
 * @example
 * anthropicStopReason({ ...turn, finishReason: 'length' }); // 'max_tokens'
 */
export function anthropicStopReason(turn: ResolvedTurn): string {
  if (turn.finishReason !== undefined) return STOP_REASONS[turn.finishReason] ?? turn.finishReason;
  return turn.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

/**
 * Messages `usage` object with both cache counters (0 when not scripted, as the real API sends).
 *
 * @example
 * anthropicUsage({ input: 10, output: 5, cacheWrite: 3 }).cache_creation_input_tokens; // 3
 */
export function anthropicUsage(usage: FakeUsage) {
  return {
    input_tokens: usage.input,
    output_tokens: usage.output,
    cache_creation_input_tokens: usage.cacheWrite ?? 0,
    cache_read_input_tokens: usage.cacheRead ?? 0,
  };
}

/**
 * The non-streamed `input` of a tool_use block: object arguments as is; a raw string parsed when it
 * is JSON (so `null`, `[]` or `"str"` reach the client as such), else the string itself.
 */
function toolInput(call: ResolvedToolCall): unknown {
  if (typeof call.arguments !== 'string') return call.arguments;
  try {
    return JSON.parse(call.arguments);
  } catch {
    return call.arguments;
  }
}

/**
 * A non-streamed `message` body. The text block is present only when the text is non-empty, as the
 * real API omits empty text blocks.
 *
 * @example
 * const body = anthropicMessage(turn); // { id, type: 'message', role: 'assistant', content: [...], stop_reason, usage }
 */
export function anthropicMessage(turn: ResolvedTurn) {
  const content: unknown[] = [];
  if (turn.text !== '') content.push({ type: 'text', text: turn.text });
  for (const call of turn.toolCalls) {
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call) });
  }
  return {
    id: turn.id,
    type: 'message',
    role: 'assistant',
    model: turn.model,
    content,
    stop_reason: anthropicStopReason(turn),
    stop_sequence: null,
    usage: anthropicUsage(turn.usage),
  };
}

/**
 * The events of a streamed turn: `message_start` (input and cache usage), `ping`, then per block
 * `content_block_start` / `content_block_delta` (`text_delta` or `input_json_delta`) /
 * `content_block_stop`, then `message_delta` (stop_reason and the cumulative usage) and
 * `message_stop`. Tool arguments travel verbatim in `partial_json` pieces.
 *
 * @example
 * const { events } = anthropicStream(turn);
 */
export function anthropicStream(turn: ResolvedTurn): StreamPlan {
  const event = (name: string, body: Record<string, unknown>): SseEvent => ({
    event: name,
    data: JSON.stringify({ type: name, ...body }),
  });
  const usage = anthropicUsage(turn.usage);
  const events: SseEvent[] = [
    event('message_start', {
      message: {
        id: turn.id,
        type: 'message',
        role: 'assistant',
        model: turn.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 0 },
      },
    }),
    event('ping', {}),
  ];
  let index = 0;
  if (turn.text !== '') {
    events.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const text of chunkText(turn.text, turn.chunkSize)) {
      events.push(event('content_block_delta', { index, delta: { type: 'text_delta', text } }));
    }
    events.push(event('content_block_stop', { index }));
    index += 1;
  }
  for (const call of turn.toolCalls) {
    events.push(
      event('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      }),
    );
    for (const partial_json of chunkText(call.argumentsText, turn.chunkSize)) {
      events.push(
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }),
      );
    }
    events.push(event('content_block_stop', { index }));
    index += 1;
  }
  const openEvents = events.length;
  events.push(
    event('message_delta', {
      delta: { stop_reason: anthropicStopReason(turn), stop_sequence: null },
      usage,
    }),
    event('message_stop', {}),
  );
  return { events, openEvents };
}

/** Default `error.type` for an HTTP status, per the Messages API error list. */
function defaultType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    402: 'billing_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    504: 'timeout_error',
    529: 'overloaded_error',
  };
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/**
 * An Anthropic error body `{ type: 'error', error: { type, message } }`.
 *
 * @example
 * anthropicError(529, 'Overloaded'); // { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }
 */
export function anthropicError(status: number, message: string, errorType?: string) {
  return { type: 'error', error: { type: errorType ?? defaultType(status), message } };
}

/**
 * The mid-stream `event: error`, which the SDK throws as `APIError` after the 200 (so it does not
 * retry it).
 *
 * @example
 * anthropicStreamError('overloaded_error', 'Overloaded'); // { event: 'error', data: '{"type":"error",…}' }
 */
export function anthropicStreamError(errorType: string, message: string): SseEvent {
  return { event: 'error', data: JSON.stringify(anthropicError(500, message, errorType)) };
}
