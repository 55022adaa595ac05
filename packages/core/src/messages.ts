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
  /** On a tool result: the length of the tool's closing note at the end (see `ToolOutput.footerChars`). */
  footerChars?: number;
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
 * `isError` and `footerChars` were fields kept them as `metadata.is_error` and
 * `metadata.footer_chars`; they are read into the fields, so an old state's failed calls still
 * count as failures and its closing notes are still known.
 *
 * @example
 * messageSchema.parse({ role: 'tool', content: 'boom', metadata: { is_error: true } }).isError; // true
 */
export const messageSchema: z.ZodType<Message, unknown> = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: z.string(),
    toolCalls: z.array(toolCallSchema).optional(),
    toolCallId: z.string().optional(),
    name: z.string().optional(),
    isError: z.boolean().optional(),
    footerChars: z.number().int().nonnegative().optional(),
    metadata: jsonObjectSchema.optional(),
  })
  .transform(readLegacyFields);

/**
 * Lift what an older version kept in the metadata into the typed fields: `is_error` into
 * {@link Message.isError}, `footer_chars` into {@link Message.footerChars}.
 */
function readLegacyFields(message: Message): Message {
  if (message.metadata === undefined) return message;
  const { is_error: isError, footer_chars: footerChars, ...metadata } = message.metadata;
  const lifted: Message = { ...message, metadata };
  if (typeof isError === 'boolean') lifted.isError = message.isError ?? isError;
  else if (isError !== undefined) metadata.is_error = isError;
  if (typeof footerChars === 'number' && Number.isInteger(footerChars) && footerChars > 0) {
    lifted.footerChars = message.footerChars ?? footerChars;
  } else if (footerChars !== undefined) metadata.footer_chars = footerChars;
  return lifted;
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
    result: { isError?: boolean; footerChars?: number; metadata?: JsonObject } = {},
  ): Message => ({
    role: 'tool',
    content,
    toolCallId: call.id,
    name: call.name,
    isError: result.isError ?? false,
    ...(result.footerChars === undefined ? {} : { footerChars: result.footerChars }),
    ...(result.metadata === undefined ? {} : { metadata: result.metadata }),
  }),
};
