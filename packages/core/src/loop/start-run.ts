import type { ToolPolicy } from '../agent/tool-policy.js';
import type { ApprovalGate } from '../approval/approval-gate.js';
import type { CompactionOptions } from '../context/compactor.js';
import type { ContextBuilder } from '../context/context-builder.js';
import type { ProjectContext } from '../context/project-context.js';
import { errorMessage } from '../errors.js';
import type { Message } from '../messages.js';
import type { Logger } from '../observe/logger.js';
import type { PriceTable } from '../observe/price-table.js';
import type { RunCaller, RunEventListener } from '../observe/run-events.js';
import type { Tracer } from '../observe/tracer.js';
import type { LLMProvider } from '../provider.js';
import type { SessionRef } from '../session/session-ref.js';
import type { RunMemory, StateStore } from '../store/state-store.js';
import type { ToolRegistry } from '../tool-registry.js';
import type { ModeStrategy } from './mode-strategy.js';
import { newRunId, runFrame } from './run-frame.js';
import { runLoop } from './run-loop.js';
import { newRunState, type RunState } from './run-state.js';
import type { RunMode, RunResult } from './run-types.js';
import type { Stop } from './stop.js';
import { loopText } from './strings.js';

/** How many memory lines a run reads back. */
export const RECENT_MEMORY_LINES = 5;

/** What every run of one agent shares. */
export interface RunSetup {
  provider: LLMProvider;
  registry: ToolRegistry;
  /** The tools the policy allows, sorted: what the model may see and call. */
  tools: readonly string[];
  /** The agent's allow and deny lists, which also bound every child run's tools. */
  policy: ToolPolicy;
  store: StateStore;
  tracer: Tracer | undefined;
  /** Pauses risky calls and continues them after a decision; undefined: nothing pauses. */
  approvals: ApprovalGate | undefined;
  logger: Logger;
  context: ContextBuilder;
  instructions: string | undefined;
  /** What the project adds at the start of every run (AGENTS.md, skills …); undefined: nothing. */
  projectContext: ProjectContext | undefined;
  maxTokens: number | undefined;
  maxParallelTools: number;
  compaction: CompactionOptions;
  prices: PriceTable | undefined;
  /** Listeners of every run of the agent. */
  listeners: readonly RunEventListener[];
}

/** One run's request, validated. */
export interface RunRequest {
  /** The run's id, when the caller picked it (its session is named after it); default a new one. */
  runId?: string;
  prompt: string;
  session: SessionRef;
  mode: RunMode;
  maxSteps: number;
  signal: AbortSignal;
  /** Listeners of this run only. */
  listeners: readonly RunEventListener[];
  caller: RunCaller;
  parent?: { runId: string; toolCallId: string };
  /**
   * False: the run reads and writes no session memory (a child of a run that remembers nothing).
   * Default: unless the session is a run's own.
   */
  remembers?: boolean;
  /** Who asked for the run (recorded with an approval request). */
  requestedBy?: string;
  /** Where the run was asked for, as the front end names it (recorded with an approval request). */
  origin?: string;
  /** Earlier turns of the conversation, checked: placed just before the prompt. */
  history?: readonly Message[];
}

/**
 * Run the agent once: announce the run, open it (memory, the mode's opening, the project context),
 * loop, and finish (memory line, trace, `run.finish`). An unexpected error still closes the trace
 * before it propagates.
 *
 * @example
 * const result = await startRun(setup, { prompt: 'hi', session, mode: 'act', maxSteps: 20, signal, listeners: [], caller: 'main_loop' });
 */
export function startRun(setup: RunSetup, request: RunRequest): Promise<RunResult> {
  const state = newRunState({
    runId: request.runId ?? newRunId(),
    session: request.session,
    prompt: request.prompt,
    mode: request.mode,
    maxSteps: request.maxSteps,
    model: setup.provider.model ?? null,
  });
  return runFrame(setup, state, request, async (frame) => {
    const opened = await openRun(state, frame.strategy, frame.memory, setup, request.history);
    return opened ?? runLoop(state, frame.loop);
  });
}

/**
 * Fill a fresh state with what the model sees first: the context (system prompt, instructions,
 * the project context's messages, recent memory, the prompt) and the mode's opening messages, and
 * settle which tools the run may use. Returns a stop when the mode ends the run without calling
 * the model.
 */
async function openRun(
  state: RunState,
  strategy: ModeStrategy,
  memory: RunMemory,
  setup: RunSetup,
  history: readonly Message[] = [],
): Promise<Stop | undefined> {
  const { logger } = setup;
  const memories = await memory.readRecent(RECENT_MEMORY_LINES).catch((error: unknown) => {
    logger.warn(loopText.memoryUnreadable(errorMessage(error)));
    return [];
  });
  const opening = await strategy.open(state);
  if ('stop' in opening) return opening.stop;
  const context = await setup.context.build({
    prompt: state.prompt,
    memories,
    workdir: state.session.workdir,
    project: setup.projectContext,
    ...(setup.instructions === undefined ? {} : { instructions: setup.instructions }),
  });
  for (const warning of context.warnings) logger.warn(warning);
  if (context.selectedSkill) logger.info(`skill selected name=${context.selectedSkill.name}`);
  // The context ends with the prompt; the conversation so far goes just before it.
  const prompt = context.messages.slice(-1);
  state.messages.push(...context.messages.slice(0, -1), ...history, ...prompt, ...opening.messages);
  state.tools = narrowToSkill(setup.tools, context.allowedTools);
  return undefined;
}

/**
 * The agent's allowed tools narrowed by the selected skill's `allowed-tools` (compared
 * case-insensitively): a skill can only remove tools, never add one.
 */
function narrowToSkill(
  allowed: readonly string[],
  skillAllowed: readonly string[] | undefined,
): string[] {
  if (!skillAllowed) return [...allowed];
  const wanted = new Set(skillAllowed.map((name) => name.toLowerCase()));
  return allowed.filter((name) => wanted.has(name.toLowerCase()));
}
