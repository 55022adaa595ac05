import type {
  ContentBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { LLMRequest, Message } from '@tiny-claw/core';
import { text } from './strings.js';

/**
 * The fields of a Messages request this package sends (`stream` is added per call).
 *
 * @example
 * const body: ClaudeRequestBody = toClaudeRequest(request, { model, maxTokens: 4096 });
 */
export type ClaudeRequestBody = Pick<
  MessageCreateParamsBase,
  'model' | 'max_tokens' | 'messages' | 'system' | 'tools' | 'tool_choice'
>;

type Turn = { role: 'user' | 'assistant'; content: ContentBlockParam[] };

/**
 * Map a tiny-claw request to a Messages API body. The rules, each forced by the API:
 * - every system message's non-empty content, joined with a blank line, becomes `system`;
 * - tool results become `tool_result` blocks (`is_error` from `Message.isError`) in a **user**
 *   turn, placed before any text of that turn;
 * - consecutive same-role turns are merged so roles alternate;
 * - no text block is ever empty or whitespace-only (the API rejects them); a turn left with no
 *   blocks is dropped, so an assistant turn with no text and no calls disappears;
 * - the first turn is a user turn and so is the last: a `(continue)` user turn is added where the
 *   history has none (empty history, history opening with the assistant, or ending with it);
 * - `tools` and `tool_choice` are sent only with tools; without tools, earlier tool calls and
 *   results are written as text, because the API refuses `tool_use` blocks without definitions.
 *
 * @example
 * toClaudeRequest({ messages: [msg.user('hi')], tools: [], toolChoice: 'auto' }, { model: 'claude-sonnet-4-5', maxTokens: 1024 });
 */
export function toClaudeRequest(
  request: LLMRequest,
  defaults: { model: string; maxTokens: number },
): ClaudeRequestBody {
  const toolsEnabled = request.tools.length > 0;
  const system = request.messages
    .filter((message) => message.role === 'system' && message.content.trim() !== '')
    .map((message) => message.content)
    .join('\n\n');
  const body: ClaudeRequestBody = {
    model: defaults.model,
    max_tokens: request.maxTokens ?? defaults.maxTokens,
    messages: toTurns(request.messages, toolsEnabled),
  };
  if (system) body.system = system;
  if (toolsEnabled) {
    body.tools = request.tools.map(
      (tool): Tool => ({
        name: tool.name,
        description: tool.description,
        // The API insists on an object schema; a definition that omits `type` still means one.
        input_schema: { type: 'object', ...tool.parameters } as Tool.InputSchema,
      }),
    );
    body.tool_choice = { type: request.toolChoice };
  }
  return body;
}

function toTurns(messages: readonly Message[], toolsEnabled: boolean): MessageParam[] {
  const turns: Turn[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const turn = toTurn(message, toolsEnabled);
    if (turn.content.length === 0) continue;
    const last = turns.at(-1);
    if (last && last.role === turn.role) last.content.push(...turn.content);
    else turns.push(turn);
  }
  if (turns[0]?.role !== 'user') turns.unshift(placeholderUserTurn());
  if (turns.at(-1)?.role !== 'user') turns.push(placeholderUserTurn());
  return turns.map((turn) => ({
    role: turn.role,
    content: turn.role === 'user' ? toolResultsFirst(turn.content) : turn.content,
  }));
}

function toTurn(message: Message, toolsEnabled: boolean): Turn {
  switch (message.role) {
    case 'assistant': {
      const content: ContentBlockParam[] = textBlocks(message.content);
      for (const call of message.toolCalls ?? []) {
        content.push(
          toolsEnabled
            ? { type: 'tool_use', id: call.id, name: call.name, input: call.arguments }
            : {
                type: 'text',
                text: text.toolCallAsText(call.name, call.id, JSON.stringify(call.arguments)),
              },
        );
      }
      return { role: 'assistant', content };
    }
    case 'tool': {
      const isError = message.isError === true;
      const id = message.toolCallId ?? '';
      if (!toolsEnabled) {
        const rendered = text.toolResultAsText(
          message.name ?? 'unknown',
          id,
          isError,
          message.content,
        );
        return { role: 'user', content: [{ type: 'text', text: rendered }] };
      }
      return {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: id,
            // An empty string is not a valid text payload; an absent `content` is.
            ...(message.content === '' ? {} : { content: message.content }),
            is_error: isError,
          },
        ],
      };
    }
    default:
      return { role: 'user', content: textBlocks(message.content) };
  }
}

function textBlocks(content: string): ContentBlockParam[] {
  return content.trim() === '' ? [] : [{ type: 'text', text: content }];
}

function placeholderUserTurn(): Turn {
  return { role: 'user', content: [{ type: 'text', text: text.placeholderUserTurn }] };
}

// The API requires a user turn's tool_result blocks to come before any other block.
function toolResultsFirst(content: ContentBlockParam[]): ContentBlockParam[] {
  const results = content.filter((block) => block.type === 'tool_result');
  if (results.length === 0 || results.length === content.length) return content;
  return [...results, ...content.filter((block) => block.type !== 'tool_result')];
}
