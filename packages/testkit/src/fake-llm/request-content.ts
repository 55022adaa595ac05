import type { RecordedRequest } from './server.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text of a content field: a string, or the `text` of each text block joined by newlines. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isObject)
    .map((block) => (typeof block.text === 'string' ? block.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * Every tool result a request sends the model, in order, as text: OpenAI `role: "tool"` messages
 * and Anthropic `tool_result` blocks alike.
 *
 * @example
 * server.enqueue({ kind: 'reply', reply: (request) => ({ text: toolResults(request).at(-1) ?? '' }) });
 */
export function toolResults(request: RecordedRequest): string[] {
  const messages = isObject(request.body) ? request.body.messages : undefined;
  if (!Array.isArray(messages)) return [];
  const results: string[] = [];
  for (const message of messages.filter(isObject)) {
    if (request.api === 'openai') {
      if (message.role === 'tool') results.push(textOf(message.content));
      continue;
    }
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content.filter(isObject)) {
      if (block.type === 'tool_result') results.push(textOf(block.content));
    }
  }
  return results;
}
