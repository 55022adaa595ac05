import type {
  Message as ClaudeMessage,
  MessageDeltaUsage,
  Usage,
} from '@anthropic-ai/sdk/resources/messages';
import { type LLMResponse, type LLMUsage, msg, type ToolCall } from '@tiny-claw/core';
import { text } from './strings.js';
import { type DecodedInput, decodeToolInput, decodeToolInputJson } from './tool-input.js';

/**
 * The provider-neutral parts of one finished Claude turn, from a JSON body or an assembled stream.
 *
 * @example
 * const turn: ClaudeTurn = { text: 'done', toolCalls: [], stopReason: 'end_turn' };
 */
export interface ClaudeTurn {
  text: string;
  toolCalls: ToolCall[];
  usage?: LLMUsage;
  stopReason?: string;
  model?: string;
}

/**
 * Read a non-streamed Messages response. Text blocks are joined with `''`: they are consecutive
 * parts of one answer (the API splits text around citations and tool calls), and a streamed turn
 * shows exactly the same characters through `onTextDelta`. Other block kinds (thinking, server
 * tools) are not part of tiny-claw's protocol and are skipped. With `stop_reason: "max_tokens"`,
 * a `tool_use` that is the last block was cut off, so its call carries an `argumentsError`.
 *
 * @example
 * const turn = fromClaudeMessage(await client.messages.create({ ...body, stream: false }));
 */
export function fromClaudeMessage(message: ClaudeMessage): ClaudeTurn {
  const parts: string[] = [];
  const toolCalls: ToolCall[] = [];
  const blocks = Array.isArray(message.content) ? message.content : [];
  blocks.forEach((block, index) => {
    if (block.type === 'text') parts.push(block.text);
    if (block.type !== 'tool_use') return;
    const truncated = message.stop_reason === 'max_tokens' && index === blocks.length - 1;
    toolCalls.push(
      truncated
        ? { id: block.id, name: block.name, arguments: {}, argumentsError: text.argumentsTruncated }
        : { id: block.id, name: block.name, ...decodeNonStreamedInput(block.input) },
    );
  });
  const turn: ClaudeTurn = { text: parts.join(''), toolCalls };
  const usage = toUsage(message.usage);
  if (usage) turn.usage = usage;
  if (message.stop_reason) turn.stopReason = message.stop_reason;
  if (message.model) turn.model = message.model;
  return turn;
}

// The API sends `input` as an object; some proxies send the JSON text instead. Accept both.
function decodeNonStreamedInput(input: unknown): DecodedInput {
  return typeof input === 'string' ? decodeToolInputJson(input) : decodeToolInput(input);
}

/**
 * Map Anthropic usage to tiny-claw's convention, where `inputTokens` counts every prompt token
 * (as OpenAI's `prompt_tokens` does). Anthropic's `input_tokens` excludes cache reads and writes,
 * so they are added back; they are also reported apart so pricing can use the cached rates.
 *
 * @example
 * toUsage({ input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100 }); // { inputTokens: 110, outputTokens: 5, totalTokens: 115, cacheReadTokens: 100 }
 */
export function toUsage(
  usage: Partial<Pick<Usage | MessageDeltaUsage, UsageField>> | null | undefined,
): LLMUsage | undefined {
  if (!usage) return undefined;
  const inputTokens =
    (usage.input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0);
  const outputTokens = usage.output_tokens ?? 0;
  const result: LLMUsage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  if (typeof usage.cache_read_input_tokens === 'number') {
    result.cacheReadTokens = usage.cache_read_input_tokens;
  }
  if (typeof usage.cache_creation_input_tokens === 'number') {
    result.cacheWriteTokens = usage.cache_creation_input_tokens;
  }
  return result;
}

type UsageField =
  | 'input_tokens'
  | 'output_tokens'
  | 'cache_read_input_tokens'
  | 'cache_creation_input_tokens';

/**
 * Wrap a finished turn as the loop's `LLMResponse`.
 *
 * @example
 * return toLLMResponse(turn, 'claude-sonnet-4-5');
 */
export function toLLMResponse(turn: ClaudeTurn, requestedModel: string): LLMResponse {
  const response: LLMResponse = {
    message: msg.assistant(turn.text, turn.toolCalls),
    provider: 'claude',
    model: turn.model ?? requestedModel,
  };
  if (turn.usage) response.usage = turn.usage;
  if (turn.stopReason) response.stopReason = turn.stopReason;
  return response;
}
