import type { SseEvent, StreamPlan } from './sse.js';
import { chunkText, type FakeUsage, type ResolvedTurn } from './steps.js';

// A fixed timestamp keeps every response byte-for-byte reproducible.
const CREATED = 1_700_000_000;

const FINISH_REASONS: Record<string, string> = {
  max_tokens: 'length',
  tool_use: 'tool_calls',
  end_turn: 'stop',
};

/**
 * The Chat Completions `finish_reason` of a turn: the override (Anthropic names translated), else
 * `tool_calls` when it calls tools, else `stop`.
 *
 * @example
 * openaiFinishReason({ ...turn, finishReason: 'max_tokens' }); // 'length'
 */
export function openaiFinishReason(turn: ResolvedTurn): string {
  if (turn.finishReason !== undefined)
    return FINISH_REASONS[turn.finishReason] ?? turn.finishReason;
  return turn.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

/**
 * Chat Completions `usage` object, with the cached and reasoning details the real API sends.
 *
 * @example
 * openaiUsage({ input: 10, output: 5, cacheRead: 4 }).prompt_tokens_details.cached_tokens; // 4
 */
export function openaiUsage(usage: FakeUsage) {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoning ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/**
 * A non-streamed `chat.completion` body. `content` is null when the turn only calls tools, as the
 * real API does.
 *
 * @example
 * const body = openaiCompletion(turn); // { id, object: 'chat.completion', choices: [...], usage }
 */
export function openaiCompletion(turn: ResolvedTurn) {
  const onlyTools = turn.text === '' && turn.toolCalls.length > 0;
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: onlyTools ? null : turn.text,
    refusal: null,
  };
  if (turn.toolCalls.length > 0) {
    message.tool_calls = turn.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.argumentsText },
    }));
  }
  return {
    id: turn.id,
    object: 'chat.completion',
    created: CREATED,
    model: turn.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: openaiFinishReason(turn) }],
    usage: openaiUsage(turn.usage),
    system_fingerprint: null,
  };
}

/**
 * The `chat.completion.chunk` events of a streamed turn: a role chunk, text deltas, per tool call
 * a header delta (`index`, `id`, `type`, `function.name`, empty `arguments`) then argument deltas,
 * a finish chunk, the usage chunk (`choices: []`) when `stream_options.include_usage` was asked,
 * and `[DONE]`.
 *
 * @example
 * const { events } = openaiStream(turn, { includeUsage: true });
 */
export function openaiStream(turn: ResolvedTurn, options: { includeUsage: boolean }): StreamPlan {
  const chunk = (choices: unknown[], usage?: unknown): SseEvent => {
    const body: Record<string, unknown> = {
      id: turn.id,
      object: 'chat.completion.chunk',
      created: CREATED,
      model: turn.model,
      system_fingerprint: null,
      choices,
    };
    // With include_usage the real API puts `usage: null` on every chunk but the last.
    if (options.includeUsage) body.usage = usage ?? null;
    return { data: JSON.stringify(body) };
  };
  const delta = (value: Record<string, unknown>, finish: string | null = null) =>
    chunk([{ index: 0, delta: value, logprobs: null, finish_reason: finish }]);

  const events: SseEvent[] = [delta({ role: 'assistant', content: '', refusal: null })];
  for (const piece of chunkText(turn.text, turn.chunkSize)) events.push(delta({ content: piece }));
  turn.toolCalls.forEach((call, index) => {
    events.push(
      delta({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
        ],
      }),
    );
    for (const piece of chunkText(call.argumentsText, turn.chunkSize)) {
      events.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  const openEvents = events.length;
  events.push(delta({}, openaiFinishReason(turn)));
  if (options.includeUsage) events.push(chunk([], openaiUsage(turn.usage)));
  events.push({ data: '[DONE]' });
  return { events, openEvents };
}

/** Default `error.type` / `error.code` for an HTTP status, as the real API reports them. */
function defaults(status: number): { type: string; code: string | null } {
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 429) return { type: 'requests', code: 'rate_limit_exceeded' };
  if (status >= 500) return { type: 'server_error', code: null };
  return { type: 'invalid_request_error', code: null };
}

/**
 * An OpenAI error body `{ error: { message, type, param, code } }`. A given `errorType` fills both
 * `type` and `code` (so `context_length_exceeded` is matched whichever a client reads).
 *
 * @example
 * openaiError(429, 'slow down'); // { error: { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' } }
 */
export function openaiError(status: number, message: string, errorType?: string) {
  const fallback = defaults(status);
  return {
    error: {
      message,
      type: errorType ?? fallback.type,
      param: null,
      code: errorType ?? fallback.code,
    },
  };
}

/**
 * The mid-stream error event: a data-only `{"error":{…}}` chunk, which the SDK throws as `APIError`.
 *
 * @example
 * openaiStreamError('overloaded_error', 'Overloaded'); // { data: '{"error":{…}}' }
 */
export function openaiStreamError(errorType: string, message: string): SseEvent {
  return { data: JSON.stringify({ error: { message, type: errorType, param: null, code: null } }) };
}
