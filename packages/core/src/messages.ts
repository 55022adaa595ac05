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

/** Schema of a persisted {@link Message} (checkpoints). */
export const messageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  toolCalls: z.array(toolCallSchema).optional(),
  toolCallId: z.string().optional(),
  name: z.string().optional(),
  metadata: jsonObjectSchema.optional(),
});

/** Builders for the four kinds of message. */
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
    metadata: JsonObject = {},
  ): Message => ({
    role: 'tool',
    content,
    toolCallId: call.id,
    name: call.name,
    metadata,
  }),
};
