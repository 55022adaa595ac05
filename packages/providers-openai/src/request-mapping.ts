import { type LLMRequest, type Message, ProviderError, type ToolDefinition } from '@tiny-claw/core';
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { type TokenParameter, tokenParameterFor } from './options.js';
import { text } from './strings.js';

/**
 * The body fields we send (everything but `stream`, which the caller adds).
 *
 * @example
 * const params: ChatParams = { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] };
 */
export type ChatParams = Omit<ChatCompletionCreateParamsBase, 'stream'>;

/**
 * Map protocol messages to Chat Completions messages. A tool result without a `toolCallId`
 * cannot be matched to its call by the server, so it is refused before anything is sent.
 *
 * @example
 * toChatMessages([{ role: 'user', content: 'hi' }]); // [{ role: 'user', content: 'hi' }]
 */
export function toChatMessages(messages: Message[]): ChatCompletionMessageParam[] {
  return messages.map((message, index): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return { role: 'user', content: message.content };
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          // OpenAI wants null, not '', when a turn is only tool calls.
          content: message.content === '' ? null : message.content,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
          })),
        };
      }
      case 'tool': {
        if (message.toolCallId === undefined || message.toolCallId === '') {
          throw new ProviderError(text.missingToolCallId(index), { kind: 'bad_request' });
        }
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
      }
      default:
        throw new ProviderError(
          text.unknownRole(index, String((message as { role: unknown }).role)),
          { kind: 'bad_request' },
        );
    }
  });
}

/**
 * Map tool definitions to Chat Completions function tools.
 *
 * @example
 * toChatTools([{ name: 'read', description: 'Read a file', parameters: { type: 'object' } }]);
 * // [{ type: 'function', function: { name: 'read', description: 'Read a file', parameters: { type: 'object' } } }]
 */
export function toChatTools(tools: ToolDefinition[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/**
 * Build the request body. `tools` and `tool_choice` are sent only when there are tools (a
 * `tool_choice` without tools is rejected by OpenAI and by several compatible servers); the token
 * limit goes in the parameter the model accepts.
 *
 * @example
 * buildChatParams(request, { model: 'gpt-5', maxTokens: 1024, tokenParameter: 'auto' });
 * // { model: 'gpt-5', messages: [...], max_completion_tokens: 1024 }
 */
export function buildChatParams(
  request: LLMRequest,
  settings: {
    model: string;
    maxTokens: number | undefined;
    tokenParameter: 'auto' | TokenParameter;
  },
): ChatParams {
  const params: ChatParams = { model: settings.model, messages: toChatMessages(request.messages) };
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    params.tools = toChatTools(tools);
    params.tool_choice = request.toolChoice;
  }
  const maxTokens = request.maxTokens ?? settings.maxTokens;
  if (maxTokens !== undefined) {
    params[tokenParameterFor(settings.model, settings.tokenParameter)] = maxTokens;
  }
  return params;
}
