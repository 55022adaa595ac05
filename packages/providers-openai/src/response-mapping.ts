import { randomBytes } from 'node:crypto';
import type { LLMUsage, ToolCall } from '@tiny-claw/core';
import { text } from './strings.js';
import { decodeToolArguments } from './tool-arguments.js';
import type { WireCompletion, WireMessage, WireUsage } from './wire-types.js';

/**
 * A tool call as read off the wire, before its arguments are decoded.
 *
 * @example
 * const raw: RawToolCall = { id: 'call_1', name: 'read', arguments: '{"path":"a"}' };
 */
export interface RawToolCall {
  id: string | undefined;
  name: string | undefined;
  /** A JSON string (normal), an object (some compatible servers) or nothing. */
  arguments: unknown;
}

/**
 * What a response (streamed or not) amounts to, before it becomes an `LLMResponse`.
 *
 * @example
 * const turn: MappedTurn = { text: 'hi', toolCalls: [], usage: undefined, stopReason: 'stop', model: 'gpt-4.1' };
 */
export interface MappedTurn {
  text: string;
  toolCalls: ToolCall[];
  usage: LLMUsage | undefined;
  stopReason: string | undefined;
  model: string | undefined;
}

/**
 * Map Chat Completions usage to ours. Cached and reasoning counts are kept only when reported.
 *
 * @example
 * toUsage({ prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 }); // { inputTokens: 10, outputTokens: 2, totalTokens: 12 }
 */
export function toUsage(usage: WireUsage | null | undefined): LLMUsage | undefined {
  if (!usage || typeof usage !== 'object') return undefined;
  const inputTokens = count(usage.prompt_tokens) ?? 0;
  const outputTokens = count(usage.completion_tokens) ?? 0;
  const result: LLMUsage = {
    inputTokens,
    outputTokens,
    totalTokens: count(usage.total_tokens) ?? inputTokens + outputTokens,
  };
  const cached =
    count(usage.prompt_tokens_details?.cached_tokens) ?? count(usage.prompt_cache_hit_tokens);
  if (cached !== undefined) result.cacheReadTokens = cached;
  const reasoning = count(usage.completion_tokens_details?.reasoning_tokens);
  if (reasoning !== undefined) result.reasoningTokens = reasoning;
  return result;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * The text of a message: a string, or the text parts of a content array (some compatible
 * servers), or the refusal when there is no content, so the user sees why nothing came back.
 *
 * @example
 * messageText({ content: null, refusal: 'I cannot help with that.' }); // 'I cannot help with that.'
 */
export function messageText(message: WireMessage | null | undefined): string {
  const content = message?.content;
  if (typeof content === 'string' && content !== '') return content;
  if (Array.isArray(content)) {
    const parts = content
      .map((part: unknown) =>
        typeof part === 'object' &&
        part !== null &&
        typeof (part as { text?: unknown }).text === 'string'
          ? (part as { text: string }).text
          : '',
      )
      .join('');
    if (parts !== '') return parts;
  }
  return typeof message?.refusal === 'string' ? message.refusal : '';
}

/**
 * Turn raw tool calls into protocol calls: arguments decoded (never throwing), missing ids
 * generated and repeated ids made unique, because every call must be answered by exactly one tool
 * message with its id. When the output hit the token limit, the last call was being written when
 * it stopped, so its arguments are marked incomplete even if they happen to parse.
 *
 * @example
 * buildToolCalls([{ id: 'c1', name: 'read', arguments: '{"path":"a"}' }], false);
 * // [{ id: 'c1', name: 'read', arguments: { path: 'a' } }]
 */
export function buildToolCalls(raw: RawToolCall[], truncated: boolean): ToolCall[] {
  const seen = new Set<string>();
  return raw.map((call, index) => {
    let id = call.id !== undefined && call.id !== '' ? call.id : generatedId();
    while (seen.has(id)) id = `${id}_${index}`;
    seen.add(id);
    const decoded = decodeToolArguments(call.arguments);
    const result: ToolCall = { id, name: call.name ?? '', arguments: decoded.arguments };
    if (truncated && index === raw.length - 1) {
      result.arguments = {};
      result.argumentsError = text.argsTruncated;
    } else if (decoded.argumentsError !== undefined) {
      result.argumentsError = decoded.argumentsError;
    }
    return result;
  });
}

function generatedId(): string {
  return `call_${randomBytes(12).toString('base64url')}`;
}

/**
 * Map a non-streamed `chat.completion` body. Returns a string describing the problem when the
 * body has no usable choice.
 *
 * @example
 * const turn = fromCompletion(body, 'gpt-4.1');
 * if (typeof turn === 'string') throw new Error(turn);
 */
export function fromCompletion(body: WireCompletion): MappedTurn | string {
  const choice = Array.isArray(body?.choices) ? body.choices[0] : undefined;
  if (!choice) return text.noChoices;
  const message = choice.message ?? undefined;
  const stopReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined;
  const raw: RawToolCall[] = (Array.isArray(message?.tool_calls) ? message.tool_calls : []).map(
    (call) => ({
      id: typeof call?.id === 'string' ? call.id : undefined,
      name: typeof call?.function?.name === 'string' ? call.function.name : undefined,
      arguments: call?.function?.arguments,
    }),
  );
  return {
    text: messageText(message),
    toolCalls: buildToolCalls(raw, stopReason === 'length'),
    usage: toUsage(body.usage),
    stopReason,
    model: typeof body.model === 'string' && body.model !== '' ? body.model : undefined,
  };
}
