import { z } from 'zod';
import type { ApprovalGrant } from './approval/approval-gate.js';
import { ConfigurationError } from './errors.js';
import type { RunResult } from './loop/run-types.js';
import type { JsonObject, ToolCall, ToolDefinition } from './messages.js';
import type { Logger } from './observe/logger.js';
import type { RunEventListener } from './observe/run-events.js';
import type { SessionRef } from './session/session-ref.js';
import type { RunMemory } from './store/state-store.js';
import type { ToolMetadata } from './tool-metadata.js';

/**
 * Why a tool call failed, as a category the executor can act on without reading the message.
 * The executor's advice, the repeated-failure breaker, traces and logs all use these kinds.
 *
 * @example
 * const kind: FailureKind = 'not_found';
 */
export const failureKinds = [
  /** The model called a tool it cannot see on this step. */
  'unknown_tool',
  /** The arguments do not fit the tool's schema or cannot be used as given. */
  'invalid_arguments',
  /** The agent's policy refused the call. */
  'denied',
  /** A path leaves the working directory. */
  'outside_workdir',
  /** A path the tools may never write (version-control internals, the agent's own state). */
  'protected_path',
  /** The file, directory or other target does not exist. */
  'not_found',
  /** The target must be read (again) before it may be changed. */
  'stale_read',
  /** The text to change was not found in the target. */
  'no_match',
  /** The text to change matches more than one place. */
  'ambiguous_match',
  /** The target is of a kind this tool does not handle (binary, too large, not a regular file). */
  'unsupported_target',
  /** The call ran out of time. */
  'timeout',
  /** A command ran and reported failure (non-zero exit). */
  'command_failed',
  /** The run was cancelled while the call was pending or running. */
  'cancelled',
  /** Anything else. */
  'execution_error',
] as const;

/**
 * One of {@link failureKinds}.
 *
 * @example
 * if (output.failure?.kind === 'timeout') console.log('slow');
 */
export type FailureKind = (typeof failureKinds)[number];

/**
 * The one description of a failed call. A tool (or a middleware refusing the call) gives the
 * kind, its own finer `code` and, in its own words, what the model should do next; the executor
 * adds its verdict (`retryable`, `attempt`) to the observation the model reads. Nothing about a
 * failure travels in metadata. Advice should only name tools in {@link ToolContext.visibleTools}.
 *
 * @example
 * const failure: ToolFailure = { kind: 'not_found', code: 'city_missing', advice: 'List the cities first.' };
 */
export interface ToolFailure {
  /** The broad kind: what guidance, the repeated-failure breaker and traces go by. */
  kind: FailureKind;
  /**
   * The finer word of whoever failed or refused the call, for people, logs and its own tests (a
   * tool's `file_too_large` or `path_changed`, a middleware's reason to refuse). Core never
   * branches on it.
   */
  code?: string;
  /** The next step for the model; the executor falls back to generic advice for the kind. */
  advice?: string;
  /** The tool the advice points to, when there is an obvious one. */
  suggestedTool?: string;
  /**
   * The executor's verdict: whether trying again (differently) can help. Set on the observation
   * of a failure the executor judged; tools leave it unset.
   */
  retryable?: boolean;
  /**
   * The executor's verdict: how many times in a row this identical call has now failed in the run
   * (1 the first time). Set on the observation of a failure the executor judged; tools leave it
   * unset.
   */
  attempt?: number;
}

/**
 * What a tool returns. Tools report user and model errors as `isError: true` (with a
 * {@link ToolFailure}), never by throwing. `metadata` holds the tool's own details (an exit code,
 * a line count) for people and logs; no other package branches on it.
 *
 * @example
 * const output: ToolOutput = { content: 'no such file: a.txt', isError: true, failure: { kind: 'not_found' } };
 */
export interface ToolOutput {
  content: string;
  isError: boolean;
  failure?: ToolFailure;
  /**
   * How many characters at the end of `content` are a closing note about the whole output (the
   * range shown, where to continue). Such a note is true only of the whole output, so a compactor
   * that cuts the middle of an older result drops it.
   */
  footerChars?: number;
  metadata?: ToolMetadata;
  /**
   * The remote server that answered the call (an MCP server's name), for traces and logs; unset
   * for a tool that runs in this process.
   */
  server?: string;
}

/**
 * What a tool defined with {@link defineTool} may return: plain text (a success), or an output
 * whose `isError` defaults to whether a `failure` is given.
 *
 * @example
 * const ok: ToolResult = 'done';
 * const bad: ToolResult = { content: 'no such city', failure: { kind: 'not_found' } };
 */
export type ToolResult =
  | string
  | {
      content: string;
      isError?: boolean;
      failure?: ToolFailure;
      footerChars?: number;
      metadata?: ToolMetadata;
    };

/**
 * What a tool gets besides its arguments.
 *
 * @example
 * const ctx: ToolContext = { workdir: '/repo', signal, toolCallId: 'call_1', visibleTools: ['lookup'] };
 */
export interface ToolContext {
  workdir: string;
  session?: SessionRef;
  /** Id of the run this call belongs to (tools may keep per-run state, e.g. which files were read). */
  runId?: string;
  signal: AbortSignal;
  toolCallId: string;
  /** The tools the model can call on this step; advice should name only these. */
  visibleTools: readonly string[];
  /**
   * Starts a child run (a subagent) nested under this call, when the call is made by an agent's
   * run: same provider, store and policy, events and usage counted in the calling run.
   */
  subagents?: SubagentHost;
}

/**
 * A tool the calling run may use, with what a subagent needs to know to pick its own set.
 *
 * @example
 * const readable = host.tools.filter((tool) => tool.readOnly).map((tool) => tool.name);
 */
export interface AvailableTool {
  readonly name: string;
  /** The tool only looks: it changes nothing (see {@link Tool.readOnly}). */
  readonly readOnly: boolean;
}

/**
 * What a child run is asked to do.
 *
 * @example
 * const request: SubagentRequest = { prompt: 'Find where the port is set', instructions: 'Only report facts.', session: child, maxSteps: 6, tools: ['lookup'] };
 */
export interface SubagentRequest {
  /** The child's user message. */
  prompt: string;
  /** The child's own instructions, added to the agent's system prompt. */
  instructions: string;
  /** The child's own session (its memory, its key in traces and logs). */
  session: SessionRef;
  maxSteps: number;
  /**
   * The tools the child may call, by name: among {@link SubagentHost.tools} and `extraTools`; any
   * other name is dropped, so a child can never use a tool the agent's policy refuses.
   */
  tools: readonly string[];
  /**
   * Tools only the child gets, beyond the calling run's (e.g. a read tool the calling run is not
   * shown). The agent's allow and deny lists still apply: a tool they refuse is dropped, and every
   * call passes the agent's middlewares (policy, approvals) as the calling run's calls do.
   */
  extraTools?: readonly Tool[];
  /** Also receives the child's events (they reach the calling run's listeners either way). */
  onEvent?: RunEventListener;
}

/**
 * Runs a child agent for a tool call. The child shares the calling run's provider, store, policy
 * and tool middlewares, runs in act mode with its own messages and session, nests its events under
 * the call (so traces show it inside the call and its tokens count in the calling run's totals),
 * and leaves the session memory to the caller.
 *
 * @example
 * const result = await ctx.subagents!.run({ prompt, instructions, session, maxSteps: 6, tools: readable });
 */
export interface SubagentHost {
  /** The tools the calling run may use on this step. */
  readonly tools: readonly AvailableTool[];
  /** The agent's logger. */
  readonly logger: Logger;
  /** The provider the child runs on (the calling run's), for log lines: its name and model. */
  readonly provider: { readonly name: string; readonly model?: string };
  /** Whether the agent's allow and deny lists let a tool of this name run at all. */
  allows(toolName: string): boolean;
  run(request: SubagentRequest): Promise<RunResult>;
  /** The memory of a session in the agent's store, for the caller to record the child's work. */
  memory(session: SessionRef): RunMemory;
}

/**
 * Per-run state a tool keeps that must survive a pause for approval: when the run stops, core
 * saves it in the run state; when the run is resumed (maybe in another process) core restores it
 * under the resumed run's id. Tools that share one state (a read ledger shared by several file
 * tools) give the same `key`, and it is saved and restored once.
 *
 * @example
 * const carry: ToolCarry = { key: 'my-cache', save: (runId) => cache.get(runId), restore: (runId, data) => cache.set(runId, data) };
 */
export interface ToolCarry {
  readonly key: string;
  /** The state of run `runId` as plain JSON, or undefined when there is none. */
  save(runId: string): unknown;
  /** Take over state saved by {@link save} for run `runId`; ignore what does not fit. */
  restore(runId: string, data: unknown): void;
}

/**
 * A capability the model can call. Build one with {@link defineTool}.
 *
 * @example
 * const now = defineTool({ name: 'now', description: 'Current time', parameters: z.object({}),
 *   run: () => new Date().toISOString() });
 */
export interface Tool<A = unknown> {
  readonly name: string;
  readonly description: string;
  /** JSON schema of the arguments, as sent to the model. */
  readonly parameters: JsonObject;
  /** Safe to run concurrently with other parallel-safe calls (no writes, no side effects). */
  readonly parallelSafe: boolean;
  /**
   * The tool only looks and never changes anything (files, processes, the outside world), so a
   * read-only subagent may be given it. Default false.
   */
  readonly readOnly?: boolean;
  /** Validate raw arguments; throws {@link ToolArgumentsError} with a message the model can act on. */
  parse(args: JsonObject): A;
  run(args: A, ctx: ToolContext): Promise<ToolOutput>;
  /** Per-run state to keep across a pause for approval. */
  readonly carry?: ToolCarry;
  /**
   * Names of the tools this tool gives the child runs it starts, beyond the calling run's
   * ({@link SubagentRequest.extraTools}): an agent's policy may name them as well as its own tools.
   */
  readonly subagentTools?: readonly string[];
}

/**
 * Raised by `Tool.parse` when the model's arguments do not fit the schema.
 *
 * @example
 * throw new ToolArgumentsError('path: expected string');
 */
export class ToolArgumentsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolArgumentsError';
  }
}

/**
 * Render zod issues as one line per problem, naming the argument path.
 *
 * @example
 * describeZodError(z.object({ a: z.number() }).safeParse({}).error!); // 'a: Invalid input: …'
 */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join('.') : '(arguments)';
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

/** Names every provider accepts for a function tool. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * How to define a tool: its name and description as the model sees them, a zod object schema for
 * its input, and the function that runs it.
 *
 * @example
 * const spec: ToolSpec<z.ZodObject<{ a: z.ZodNumber }>> = {
 *   name: 'double', description: 'Double a number', parameters: z.object({ a: z.number() }),
 *   run: ({ a }) => String(a * 2),
 * };
 */
export interface ToolSpec<S extends z.ZodType<unknown, JsonObject>> {
  /** 1–64 letters, digits, `_` or `-`. */
  name: string;
  description: string;
  /** A zod object schema; the model sees it as JSON schema and the input is checked against it. */
  parameters: S;
  /** Safe to run concurrently with other parallel-safe calls (default false). */
  parallelSafe?: boolean;
  /** The tool only looks and never changes anything (default false); see {@link Tool.readOnly}. */
  readOnly?: boolean;
  /** See {@link Tool.subagentTools} (default none). */
  subagentTools?: readonly string[];
  run(input: z.output<S>, ctx: ToolContext): ToolResult | Promise<ToolResult>;
}

/**
 * Define a tool from a zod object schema. The JSON schema the model sees comes from it, and every
 * call's input is validated against it before `run` is called (a mismatch is answered to the model
 * as an invalid-arguments error; `run` never sees bad input).
 *
 * @throws ConfigurationError when the name is not 1–64 of `[A-Za-z0-9_-]` or the schema does not
 * describe an object.
 *
 * @example
 * const add = defineTool({
 *   name: 'add',
 *   description: 'Add two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   run: ({ a, b }) => String(a + b),
 * });
 */
export function defineTool<S extends z.ZodType<unknown, JsonObject>>(
  spec: ToolSpec<S>,
): Tool<z.output<S>> {
  if (!TOOL_NAME.test(spec.name)) {
    throw new ConfigurationError(
      `tool name ${JSON.stringify(spec.name)} is invalid: use 1-64 letters, digits, "_" or "-"`,
    );
  }
  let parameters: JsonObject;
  try {
    parameters = z.toJSONSchema(spec.parameters, { io: 'input' }) as JsonObject;
  } catch (error) {
    throw new ConfigurationError(
      `tool ${spec.name}: parameters cannot be described as JSON schema (${(error as Error).message}); use a z.object() of JSON-compatible fields`,
      { cause: error },
    );
  }
  if (parameters.type !== 'object') {
    throw new ConfigurationError(
      `tool ${spec.name}: parameters must be a z.object(…) schema, not ${JSON.stringify(parameters.type ?? 'a union')}`,
    );
  }
  delete parameters.$schema;
  return {
    name: spec.name,
    description: spec.description,
    parameters,
    parallelSafe: spec.parallelSafe ?? false,
    ...(spec.readOnly ? { readOnly: true } : {}),
    ...(spec.subagentTools ? { subagentTools: [...spec.subagentTools] } : {}),
    parse(args) {
      const parsed = spec.parameters.safeParse(args);
      if (!parsed.success) throw new ToolArgumentsError(describeZodError(parsed.error));
      return parsed.data;
    },
    async run(input, ctx) {
      return toToolOutput(await spec.run(input, ctx));
    },
  };
}

/**
 * Normalise what a tool function returned into a {@link ToolOutput}.
 *
 * @example
 * toToolOutput('5'); // { content: '5', isError: false }
 */
export function toToolOutput(result: ToolResult): ToolOutput {
  if (typeof result === 'string') return { content: result, isError: false };
  const output: ToolOutput = {
    content: String(result.content ?? ''),
    isError: result.isError ?? result.failure !== undefined,
  };
  if (result.failure) output.failure = result.failure;
  if (result.footerChars !== undefined) output.footerChars = result.footerChars;
  if (result.metadata) output.metadata = result.metadata;
  return output;
}

/**
 * Everything a middleware may look at for one call.
 *
 * @example
 * const middleware: ToolMiddleware = async (ctx, next) => (ctx.call.name === 'danger' ? deny() : next(ctx));
 */
export interface ToolExecutionContext {
  call: ToolCall;
  workdir: string;
  session?: SessionRef;
  runId?: string;
  signal: AbortSignal;
  /** Names the model was shown on this step; calls outside it are unknown tools. */
  visibleTools: readonly string[];
  /** The loop's own notes on the call (its position in the assistant turn), for logs. */
  metadata: JsonObject;
  /** Starts child runs nested under this call; see {@link ToolContext.subagents}. */
  subagents?: SubagentHost;
  /**
   * False when the run cannot stop to wait for a person (a child run: its caller's turn is still
   * open). A middleware that would pause such a call refuses it instead. Default true.
   */
  pausable?: boolean;
  /** Who asked for the run (`cli:<user>`, a chat user's id), as the run was told. */
  requestedBy?: string;
  /** Where the run was asked for, as the front end names it (a chat's id, say); opaque to core. */
  origin?: string;
  /**
   * Set on the one call a person approved, when the run goes on from that decision: the grant the
   * approval gate issued when it claimed the decision. Only the gate that issued it can tell it is
   * genuine; every other middleware (the policy included) still runs.
   */
  approval?: ApprovalGrant;
}

/**
 * Outcome of a call after the middleware chain.
 *
 * @example
 * if (result.status === 'suspended') console.log(result.approvalId);
 */
export type ToolExecutionResult =
  | { status: 'completed'; output: ToolOutput }
  | { status: 'denied'; output: ToolOutput; reason: string }
  | {
      status: 'suspended';
      output: ToolOutput;
      approvalId: string;
      checkpointId: string;
      /** What the request was made for, kept in the run state with the waiting call. */
      request?: SuspendedRequest;
    };

/**
 * What a middleware that paused a call recorded about the request, for the run state to keep:
 * why, until when, and what a decision must be checked against (opaque to core).
 *
 * @example
 * const request: SuspendedRequest = { reasons: ['writes .env'], toolCallHash: 'sha256:…', expiresAt: '2026-01-01T00:00:00.000Z' };
 */
export interface SuspendedRequest {
  reasons: string[];
  toolCallHash?: string;
  preImage?: unknown;
  expiresAt?: string;
}

/**
 * Runs around every call; the first middleware given is the outermost.
 *
 * @example
 * const log: ToolMiddleware = async (ctx, next) => { console.log(ctx.call.name); return next(ctx); };
 */
export type ToolMiddleware = (
  ctx: ToolExecutionContext,
  next: (ctx: ToolExecutionContext) => Promise<ToolExecutionResult>,
) => Promise<ToolExecutionResult>;

/**
 * Project a tool to what the model sees.
 *
 * @example
 * toolDefinition(add); // { name: 'add', description: 'Add two numbers', parameters: { type: 'object', … } }
 */
export function toolDefinition(tool: Tool): ToolDefinition {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}
