import type { ToolOutput } from '@tiny-claw/core';

/** The longest observation a call returns; the rest is cut with a note saying so. */
export const MAX_RESULT_CHARS = 50_000;

/** One content block of a tool result, as the protocol spells it (only what is read here). */
interface Block {
  type: string;
  text?: unknown;
  mimeType?: unknown;
  data?: unknown;
  uri?: unknown;
  name?: unknown;
  resource?: { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };
}

/** What a `tools/call` answer holds (validated by the SDK before it gets here). */
export interface CallResult {
  content?: readonly unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function approxBytes(base64: unknown): number {
  return typeof base64 === 'string' ? Math.floor((base64.length * 3) / 4) : 0;
}

function describeBlock(block: Block): string {
  switch (block.type) {
    case 'text':
      return String(block.text ?? '');
    case 'image':
    case 'audio':
      return `[${block.type} ${String(block.mimeType ?? '')}, ${approxBytes(block.data)} bytes, not shown]`;
    case 'resource_link':
      return `[resource link: ${String(block.uri ?? '')}${block.name ? ` (${String(block.name)})` : ''}]`;
    case 'resource': {
      const resource = block.resource ?? {};
      if (typeof resource.text === 'string')
        return `[resource ${String(resource.uri ?? '')}]\n${resource.text}`;
      return `[resource ${String(resource.uri ?? '')}, ${String(resource.mimeType ?? 'binary')}, ${approxBytes(resource.blob)} bytes, not shown]`;
    }
    default:
      return `[${block.type} content, not shown]`;
  }
}

/**
 * The observation for a tool's answer: text blocks as they are, images and audio as a note (the
 * model gets no pixels through a tool result), resources by their text or as a note, and the
 * structured content as JSON when no text block says anything (servers are asked to repeat it as
 * text). An answer marked
 * `isError` is a failed call (`command_failed`) whose text is the server's message.
 *
 * @example
 * toToolOutput({ content: [{ type: 'text', text: 'Echo: hi' }] }, 'everything');
 * // { content: 'Echo: hi', isError: false, server: 'everything' }
 */
export function toToolOutput(result: CallResult, server: string): ToolOutput {
  const blocks = (result.content ?? []) as Block[];
  const parts = blocks.map(describeBlock);
  const structured = result.structuredContent;
  // Servers are asked to repeat structured content as text; only when no text says anything is
  // the JSON itself the observation.
  if (structured !== undefined && !blocks.some((block) => block.type === 'text')) {
    parts.push(`structured content: ${JSON.stringify(structured)}`);
  }
  let content = parts.join('\n');
  if (content === '')
    content = result.isError ? '(the tool failed without a message)' : '(no output)';
  if (content.length > MAX_RESULT_CHARS) {
    const note = `\n[cut: the result was ${content.length} characters; the first ${MAX_RESULT_CHARS} are shown]`;
    content = `${content.slice(0, MAX_RESULT_CHARS)}${note}`;
  }
  const origin = { server };
  if (result.isError) {
    return {
      content,
      isError: true,
      failure: {
        kind: 'command_failed',
        code: 'mcp_tool_error',
        advice: 'The tool reported an error: read its message, and change the arguments or stop.',
      },
      ...origin,
    };
  }
  return { content, isError: false, ...origin };
}
