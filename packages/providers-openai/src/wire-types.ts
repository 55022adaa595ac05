/**
 * Loose shapes of what comes back from Chat Completions. The SDK's own types describe OpenAI
 * exactly; compatible servers deviate (arguments as objects, `type` or `index` missing, content as
 * parts), so everything we read is optional and checked at run time.
 *
 * @example
 * const chunk = JSON.parse(data) as WireChunk;
 *
 * @module
 */

/**
 * A tool call in a response message or a stream delta.
 *
 * @example
 * const call: WireToolCall = { index: 0, id: 'call_1', type: 'function', function: { name: 'read', arguments: '{}' } };
 */
export interface WireToolCall {
  index?: number;
  id?: string | null;
  type?: string | null;
  function?: { name?: string | null; arguments?: unknown } | null;
}

/**
 * Token counts as Chat Completions (and compatible servers) report them.
 *
 * @example
 * const usage: WireUsage = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 };
 */
export interface WireUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** DeepSeek's name for cached prompt tokens. */
  prompt_cache_hit_tokens?: number | null;
}

/**
 * The assistant message of a non-streamed response, or a stream delta.
 *
 * @example
 * const message: WireMessage = { content: 'hi', tool_calls: null };
 */
export interface WireMessage {
  content?: unknown;
  refusal?: string | null;
  tool_calls?: WireToolCall[] | null;
}

/**
 * One choice of a response or chunk.
 *
 * @example
 * const choice: WireChoice = { index: 0, delta: { content: 'hi' }, finish_reason: null };
 */
export interface WireChoice {
  index?: number;
  message?: WireMessage | null;
  delta?: WireMessage | null;
  finish_reason?: string | null;
}

/**
 * A `chat.completion` body or a `chat.completion.chunk`.
 *
 * @example
 * const chunk: WireCompletion = { model: 'gpt-4.1', choices: [], usage: null };
 */
export interface WireCompletion {
  id?: string;
  model?: string;
  choices?: WireChoice[] | null;
  usage?: WireUsage | null;
  error?: unknown;
  type?: unknown;
}
