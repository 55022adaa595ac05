import { z } from 'zod';
import type { JsonObject, ToolCall, ToolDefinition } from './messages.js';
import type { SessionRef } from './session/session-ref.js';
import type { ToolMetadata } from './tool-metadata.js';

/** What a tool returns. Tools report user/model errors as `isError: true`, never by throwing. */
export interface ToolOutput {
  content: string;
  isError: boolean;
  metadata?: ToolMetadata;
}

/** What a tool gets besides its arguments. */
export interface ToolContext {
  workdir: string;
  session?: SessionRef;
  /** Id of the run this call belongs to (tools may keep per-run state, e.g. which files were read). */
  runId?: string;
  signal: AbortSignal;
  toolCallId: string;
}

/**
 * A capability the model can call. Build one with {@link defineTool}.
 *
 * @example
 * const tool = defineTool({ name: 'now', description: 'Current time', schema: z.object({}),
 *   parallelSafe: true, run: async () => ({ content: new Date().toISOString(), isError: false }) });
 */
export interface Tool<A = unknown> {
  readonly name: string;
  readonly description: string;
  /** JSON schema of the arguments, as sent to the model. */
  readonly parameters: JsonObject;
  /** Safe to run concurrently with other parallel-safe calls (no writes, no side effects). */
  readonly parallelSafe: boolean;
  /** Validate raw arguments; throws {@link ToolArgumentsError} with a message the model can act on. */
  parse(args: JsonObject): A;
  run(args: A, ctx: ToolContext): Promise<ToolOutput>;
}

/** Raised by `Tool.parse` when the model's arguments do not fit the schema. */
export class ToolArgumentsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolArgumentsError';
  }
}

/** Render zod issues as one line per problem, naming the argument path. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join('.') : '(arguments)';
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * Define a tool from a zod object schema: the JSON schema and the argument parser come from it.
 *
 * @example
 * const hello = defineTool({ name: 'hello', description: 'Greets', parallelSafe: true,
 *   schema: z.object({ who: z.string() }), run: async ({ who }) => ({ content: `hi ${who}`, isError: false }) });
 */
export function defineTool<S extends z.ZodType<unknown, JsonObject>>(spec: {
  name: string;
  description: string;
  schema: S;
  parallelSafe: boolean;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolOutput>;
}): Tool<z.output<S>> {
  const parameters = z.toJSONSchema(spec.schema, { io: 'input' }) as JsonObject;
  delete parameters.$schema;
  return {
    name: spec.name,
    description: spec.description,
    parameters,
    parallelSafe: spec.parallelSafe,
    parse(args) {
      const parsed = spec.schema.safeParse(args);
      if (!parsed.success) throw new ToolArgumentsError(describeZodError(parsed.error));
      return parsed.data;
    },
    run: spec.run,
  };
}

/** Everything a middleware may look at for one call. */
export interface ToolExecutionContext {
  call: ToolCall;
  workdir: string;
  session?: SessionRef;
  runId?: string;
  signal: AbortSignal;
  /** Names the model was shown on this step; calls outside it are unknown tools. */
  visibleToolNames: readonly string[];
  /** Position of the call in the assistant turn, and anything the loop hands to middlewares. */
  metadata: ToolMetadata;
}

/** Outcome of a call after the middleware chain. */
export type ToolExecutionResult =
  | { status: 'completed'; output: ToolOutput }
  | { status: 'denied'; output: ToolOutput; reason: string }
  | { status: 'suspended'; output: ToolOutput; approvalId: string; checkpointId: string };

/** Runs around every call; the first registered middleware is the outermost. */
export type ToolMiddleware = (
  ctx: ToolExecutionContext,
  next: (ctx: ToolExecutionContext) => Promise<ToolExecutionResult>,
) => Promise<ToolExecutionResult>;

/** Project a tool to what the model sees. */
export function toolDefinition(tool: Tool): ToolDefinition {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}
