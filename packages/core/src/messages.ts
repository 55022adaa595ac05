import { z } from 'zod';

/** Who wrote a message. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** A JSON object (tool arguments, metadata). */
export type JsonObject = { [key: string]: unknown };

/** A call the model asked for. `arguments` is always an object; bad JSON never reaches here. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: JsonObject;
  /**
   * Set by a provider when the model's raw arguments could not be decoded into an object
   * (bad JSON, an array, a truncated stream). The call is answered with an error observation.
   */
  argumentsError?: string;
}

/** A tool as the model sees it. `parameters` is a JSON schema object. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonObject;
}

/**
 * One entry of a conversation.
 *
 * @example
 * const m: Message = { role: 'user', content: 'hello' };
 */
export interface Message {
  role: Role;
  content: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  name?: string;
  /**
   * On a tool result: the call failed, was refused or was cancelled. Providers send it as the
   * result's error flag, and the loop's strategies count failures by it.
   */
  isError?: boolean;
  /**
   * Details the message's writer keeps for itself (a tool's own details, the loop's notes). No
   * other package reads them: what others act on is a typed field.
   */
  metadata?: JsonObject;
}

export const jsonObjectSchema = z.record(z.string(), z.unknown());

export const toolCallSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  arguments: jsonObjectSchema,
  argumentsError: z.string().optional(),
});

export const toolDefinitionSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  parameters: jsonObjectSchema,
});

/**
 * Schema of a persisted {@link Message} (run states, checkpoints). A tool result written before
 * `isError` was a field kept the flag as `metadata.is_error`; it is read into `isError`, so an old
 * state's failed calls still count as failures.
 *
 * @example
 * messageSchema.parse({ role: 'tool', content: 'boom', metadata: { is_error: true } }).isError; // true
 */
export const messageSchema = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: z.string(),
    toolCalls: z.array(toolCallSchema).optional(),
    toolCallId: z.string().optional(),
    name: z.string().optional(),
    isError: z.boolean().optional(),
    metadata: jsonObjectSchema.optional(),
  })
  .transform(readLegacyFields);

/** Lift the flag an older version kept in `metadata.is_error` into {@link Message.isError}. */
function readLegacyFields(message: Message): Message {
  const legacy = message.metadata?.is_error;
  if (message.metadata === undefined || typeof legacy !== 'boolean') return message;
  const { is_error: _lifted, ...metadata } = message.metadata;
  return { ...message, isError: message.isError ?? legacy, metadata };
}

/**
 * Builders for the four kinds of message. A tool result always says whether it is an error.
 *
 * @example
 * msg.tool(call, 'no such file: a.txt', { isError: true });
 */
export const msg = {
  system: (content: string): Message => ({ role: 'system', content }),
  user: (content: string): Message => ({ role: 'user', content }),
  assistant: (content: string, toolCalls: ToolCall[] = []): Message =>
    toolCalls.length > 0
      ? { role: 'assistant', content, toolCalls }
      : { role: 'assistant', content },
  tool: (
    call: Pick<ToolCall, 'id' | 'name'>,
    content: string,
    result: { isError?: boolean; metadata?: JsonObject } = {},
  ): Message => ({
    role: 'tool',
    content,
    toolCallId: call.id,
    name: call.name,
    isError: result.isError ?? false,
    ...(result.metadata === undefined ? {} : { metadata: result.metadata }),
  }),
};
