import { resolve } from 'node:path';
import type { ApprovalGate } from '../approval/approval-gate.js';
import { type CompactionOptions, DEFAULT_COMPACTION } from '../context/compactor.js';
import { ContextBuilder } from '../context/context-builder.js';
import type { ProjectContext } from '../context/project-context.js';
import { ConfigurationError } from '../errors.js';
import { type RunMode, runModes } from '../loop/run-types.js';
import { type Logger, nullLogger } from '../observe/logger.js';
import type { PriceTable } from '../observe/price-table.js';
import type { RunEventListener } from '../observe/run-events.js';
import type { Tracer } from '../observe/tracer.js';
import type { LLMProvider } from '../provider.js';
import { createMemoryStore } from '../store/memory-state-store.js';
import type { StateStore } from '../store/state-store.js';
import type { Tool, ToolMiddleware } from '../tool.js';
import { ToolRegistry } from '../tool-registry.js';
import { Agent } from './agent.js';
import { checkPolicy } from './check-policy.js';
import { agentText } from './strings.js';
import { isAllowed, policyMiddleware, type ToolPolicy } from './tool-policy.js';

/**
 * Everything an agent is made of. Only `provider` is required.
 *
 * @example
 * const options: AgentOptions = {
 *   provider: new ScriptedProvider({ turns: [{ text: 'hi' }] }),
 *   tools: [add, lookup],
 *   policy: { deny: ['shell'] },
 *   instructions: 'Answer in one sentence.',
 * };
 */
export interface AgentOptions {
  provider: LLMProvider;
  /** The tools the model may call (default none). Names must be unique. */
  tools?: readonly Tool[];
  /** Run around every tool call, first one outermost, after the policy check and approvals. */
  middleware?: readonly ToolMiddleware[];
  /**
   * Pauses risky calls for a person's decision (`createApprovalGate` from `@tiny-claw/approval`);
   * a paused run stops with `approval_required` and continues with `agent.resume`.
   */
  approvals?: ApprovalGate;
  /**
   * Which tools may be shown and run; applied once, so both always agree. Default: every tool.
   * `deny` wins over `allow`; `allow: []` allows none. A name that is not one of `tools` is a
   * ConfigurationError naming the closest tool, never ignored.
   */
  policy?: ToolPolicy;
  /**
   * Replaces the built-in system prompt ("You are Tiny Claw, a coding agent …"), the first system
   * message of every run (default: the built-in one). `instructions`, the project context, memory
   * and the prompt still follow it, as they follow the built-in one. Must be a non-empty string.
   */
  systemPrompt?: string;
  /** Extra system text, placed right after the system prompt (built-in or `systemPrompt`). */
  instructions?: string;
  /**
   * The directory the agent works in (default `process.cwd()`): sessions are bound to it, the
   * project context reads it, and tools get it as `ctx.workdir` (workspace tools without a workdir
   * of their own work there; the approval risk policy judges calls against it).
   */
  workdir?: string;
  /** Default step limit of a run (default 20). */
  maxSteps?: number;
  /** Default mode of a run (default `act`). */
  mode?: RunMode;
  /**
   * Where sessions, memory, plans and usage go (default `createMemoryStore()`: nothing is written
   * to disk; `createFileStore(dir)` from `@tiny-claw/workspace` keeps them under a directory).
   */
  store?: StateStore;
  /** Records every run (e.g. `createTracer` from `@tiny-claw/tracing`). */
  tracer?: Tracer;
  /** Cancels every run of the agent. */
  signal?: AbortSignal;
  /** Receives every event of every run. */
  onEvent?: RunEventListener;
  /** Where warnings go (a memory file that cannot be read, a skipped skill); default nowhere. */
  logger?: Logger;
  /**
   * What the project adds to every run (default none: the agent reads no file of the workdir).
   * `workspaceContext()` from `@tiny-claw/workspace` sends `AGENTS.md` and the project's skills.
   */
  projectContext?: ProjectContext;
  /** Output-token limit of each model call (default: the provider's). */
  maxTokens?: number;
  /** Cap on concurrently running parallel-safe tool calls (default 4). */
  maxParallelTools?: number;
  /** Request-time compaction budget (default 120,000 chars, the last 8 messages kept). */
  compaction?: Partial<CompactionOptions>;
  /** Prices (USD per 1M tokens) for responses that come without a cost estimate. */
  prices?: PriceTable;
}

/**
 * Assemble an agent: the tools the policy allows (shown to the model and runnable — the same
 * list), the policy check outermost, then your middleware, then the tool, whose input is validated
 * against its schema first.
 *
 * @throws ConfigurationError for a missing provider, a duplicate tool name or any invalid option.
 *
 * @example
 * const agent = createAgent({
 *   provider: new ScriptedProvider({ turns: [{ text: 'hi' }] }),
 *   tools: [defineTool({ name: 'add', description: 'Add two numbers',
 *     parameters: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => String(a + b) })],
 *   policy: { deny: ['shell'] },
 * });
 * const result = await agent.run('what is 2 + 3?');
 */
export function createAgent(options: AgentOptions): Agent {
  const provider = options?.provider;
  if (typeof provider?.complete !== 'function' || typeof provider.name !== 'string') {
    throw new ConfigurationError(agentText.providerRequired);
  }
  const tools = [...(options.tools ?? [])];
  const seen = new Set<string>();
  tools.forEach((tool, index) => {
    if (!isTool(tool)) throw new ConfigurationError(agentText.notATool(index));
    if (seen.has(tool.name)) throw new ConfigurationError(agentText.duplicateTool(tool.name));
    seen.add(tool.name);
  });
  const policy = checkPolicy(options.policy, tools);
  const registry = new ToolRegistry().use(policyMiddleware(policy));
  const approvals = options.approvals;
  if (approvals !== undefined) {
    if (typeof approvals?.middleware !== 'function' || typeof approvals.claim !== 'function') {
      throw new ConfigurationError(agentText.notAGate);
    }
    registry.use(approvals.middleware);
  }
  (options.middleware ?? []).forEach((middleware, index) => {
    if (typeof middleware !== 'function')
      throw new ConfigurationError(agentText.notAMiddleware(index));
    registry.use(middleware);
  });
  for (const tool of tools) if (isAllowed(tool.name, policy)) registry.register(tool);
  const mode = options.mode ?? 'act';
  if (!runModes.includes(mode)) throw new ConfigurationError(agentText.badMode(mode, runModes));
  if (
    options.workdir !== undefined &&
    (typeof options.workdir !== 'string' || options.workdir === '')
  ) {
    throw new ConfigurationError(agentText.badWorkdir(options.workdir));
  }
  const systemPrompt = options.systemPrompt;
  if (
    systemPrompt !== undefined &&
    (typeof systemPrompt !== 'string' || systemPrompt.trim() === '')
  ) {
    throw new ConfigurationError(agentText.badSystemPrompt(systemPrompt));
  }
  const logger = options.logger ?? nullLogger;
  const projectContext = checkProjectContext(options.projectContext);
  return new Agent({
    workdir: resolve(options.workdir ?? process.cwd()),
    maxSteps: positiveInteger('maxSteps', options.maxSteps, 20),
    mode,
    signal: options.signal,
    setup: {
      provider,
      registry,
      tools: registry.names(),
      policy,
      store: options.store ?? createMemoryStore(),
      tracer: options.tracer,
      approvals,
      logger,
      context: new ContextBuilder(systemPrompt === undefined ? {} : { systemPrompt }),
      instructions: options.instructions,
      projectContext,
      maxTokens:
        options.maxTokens === undefined
          ? undefined
          : positiveInteger('maxTokens', options.maxTokens, 1),
      maxParallelTools: positiveInteger('maxParallelTools', options.maxParallelTools, 4),
      compaction: {
        ...DEFAULT_COMPACTION,
        ...options.compaction,
        maxChars: positiveInteger(
          'compaction.maxChars',
          options.compaction?.maxChars,
          DEFAULT_COMPACTION.maxChars,
        ),
        retainLastMessages: positiveInteger(
          'compaction.retainLastMessages',
          options.compaction?.retainLastMessages,
          DEFAULT_COMPACTION.retainLastMessages,
        ),
      },
      prices: options.prices,
      listeners: options.onEvent ? [options.onEvent] : [],
    },
  });
}

/**
 * The project context, or undefined for none. `false` (the old way to turn it off) means none;
 * `true` (the old default, which read the workdir) is refused with the fix, never ignored.
 */
function checkProjectContext(value: unknown): ProjectContext | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) throw new ConfigurationError(agentText.projectContextTrue);
  if (typeof (value as Partial<ProjectContext> | null)?.load !== 'function') {
    throw new ConfigurationError(agentText.notAProjectContext);
  }
  return value as ProjectContext;
}

function isTool(value: unknown): value is Tool {
  const tool = value as Partial<Tool> | null;
  return (
    typeof tool === 'object' &&
    tool !== null &&
    typeof tool.name === 'string' &&
    typeof tool.run === 'function' &&
    typeof tool.parse === 'function' &&
    typeof tool.parameters === 'object'
  );
}

function positiveInteger(field: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new ConfigurationError(agentText.badPositiveInteger(field, value));
  }
  return value;
}
