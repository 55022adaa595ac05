import { randomUUID } from 'node:crypto';
import {
  type CompactionLevel,
  type CompactionOptions,
  compactForRequest,
  DEFAULT_COMPACTION,
} from '../context/compactor.js';
import { ContextBuilder } from '../context/context-builder.js';
import { ConfigurationError, errorMessage, ProviderError, TinyClawError } from '../errors.js';
import { createFailureTracker } from '../executor/loop-breaker.js';
import { executeBatch } from '../executor/tool-executor.js';
import { type Message, msg, type ToolDefinition } from '../messages.js';
import { withModelCallScope } from '../observe/call-scope.js';
import { type Channel, notify } from '../observe/channel.js';
import { type Logger, nullLogger } from '../observe/logger.js';
import { nullTracer, type SpanHandle, type Tracer } from '../observe/tracer.js';
import { addUsage, type LLMProvider, type LLMResponse, type LLMUsage } from '../provider.js';
import type { SessionRef } from '../session/session-ref.js';
import type { ToolRegistry } from '../tool-registry.js';
import type { RunMemoryFactory } from './memory-port.js';
import { phaseForStep, toolPolicyForPhase } from './run-policy.js';
import type { Phase, RunMode, RunResult, StopReason, ToolPolicy } from './run-types.js';
import { loopText } from './strings.js';

/** A model that keeps answering with nothing is stopped after this many empty turns in a row. */
export const MAX_EMPTY_TURNS = 3;

/** How many memory lines a run reads back. */
export const RECENT_MEMORY_LINES = 5;

/** The parts a loop is assembled from. */
export interface MainLoopOptions {
  provider: LLMProvider;
  tools: ToolRegistry;
  memory: RunMemoryFactory;
  contextBuilder?: ContextBuilder;
  tracer?: Tracer;
  logger?: Logger;
  /** Sent to the provider as the output-token limit of each call. */
  maxTokens?: number;
  /** Cap on concurrently running parallel-safe tool calls (default 4). */
  maxParallelTools?: number;
  /** Request-time compaction budget (default 120,000 chars, last 8 messages kept). */
  compaction?: CompactionOptions;
}

/** One run's request. */
export interface RunOptions {
  prompt: string;
  session: SessionRef;
  mode?: RunMode;
  maxSteps?: number;
  channel?: Channel;
  signal?: AbortSignal;
  /** Tool names the model may see and call on this run (default: every registered tool). */
  visibleTools?: readonly string[];
}

interface RunState {
  runId: string;
  options: RunOptions;
  mode: RunMode;
  maxSteps: number;
  signal: AbortSignal;
  usage: LLMUsage | undefined;
  costUsd: number | undefined;
  /** A call reported usage but had no price: a total would be too low, so none is reported. */
  unpricedCall: boolean;
  model: string | null;
  rootSpan: SpanHandle;
}

/**
 * The ReAct loop: ask the model, run the tools it calls, feed the observations back, until it
 * answers without tool calls or a limit is hit. Every tool call in history gets exactly one result.
 *
 * @example
 * const loop = new MainLoop({ provider, tools: new ToolRegistry(), memory });
 * const result = await loop.run({ prompt: 'hello', session });
 */
export class MainLoop {
  readonly #provider: LLMProvider;
  readonly #tools: ToolRegistry;
  readonly #memory: RunMemoryFactory;
  readonly #context: ContextBuilder;
  readonly #tracer: Tracer;
  readonly #logger: Logger;
  readonly #maxTokens: number | undefined;
  readonly #maxParallel: number;
  readonly #compaction: CompactionOptions;

  constructor(options: MainLoopOptions) {
    this.#provider = options.provider;
    this.#tools = options.tools;
    this.#memory = options.memory;
    this.#context = options.contextBuilder ?? new ContextBuilder();
    this.#tracer = options.tracer ?? nullTracer;
    this.#logger = options.logger ?? nullLogger;
    this.#maxTokens = options.maxTokens;
    this.#maxParallel = options.maxParallelTools ?? 4;
    this.#compaction = options.compaction ?? DEFAULT_COMPACTION;
    if (!Number.isInteger(this.#maxParallel) || this.#maxParallel < 1) {
      throw new ConfigurationError(
        `maxParallelTools must be an integer of at least 1, got ${this.#maxParallel}`,
      );
    }
  }

  async run(options: RunOptions): Promise<RunResult> {
    const mode = options.mode ?? 'act';
    const maxSteps = options.maxSteps ?? 20;
    if (!Number.isInteger(maxSteps) || maxSteps < 1) {
      throw new ConfigurationError(`maxSteps must be an integer of at least 1, got ${maxSteps}`);
    }
    if (mode !== 'act' && mode !== 'think') {
      throw new ConfigurationError(loopText.planModesUnavailable(mode));
    }
    const runId = randomUUID().replaceAll('-', '');
    const state: RunState = {
      runId,
      options,
      mode,
      maxSteps,
      signal: options.signal ?? new AbortController().signal,
      usage: undefined,
      costUsd: undefined,
      unpricedCall: false,
      model: this.#provider.model ?? null,
      rootSpan: this.#tracer.startRun(
        'main',
        { mode, max_steps: maxSteps, provider: this.#provider.name },
        { sessionKey: options.session.key, runId },
      ),
    };
    notify(options.channel, this.#logger, 'onStart', {
      runId,
      prompt: options.prompt,
      mode,
      maxSteps,
      provider: this.#provider.name,
    });
    try {
      return await this.#loop(state);
    } catch (error) {
      // Anything unexpected still closes the trace before it propagates.
      await this.#tracer.finishRun(state.rootSpan, 'error').catch(() => undefined);
      throw error;
    }
  }

  async #loop(state: RunState): Promise<RunResult> {
    const { options, maxSteps } = state;
    const memory = this.#memory.forSession(options.session);
    const memories = await memory.readRecent(RECENT_MEMORY_LINES).catch((error: unknown) => {
      this.#logger.warn(`memory could not be read, continuing without it: ${errorMessage(error)}`);
      return [];
    });
    const messages: Message[] = this.#context.build({
      prompt: options.prompt,
      memories,
      workdir: options.session.workdir,
    });
    const visible = options.visibleTools
      ? this.#tools.names().filter((name) => options.visibleTools?.includes(name))
      : this.#tools.names();
    let lastText = '';
    let emptyTurns = 0;
    // Repeated identical failures are counted across the whole run, not per turn.
    const failureTracker = createFailureTracker();

    for (let step = 1; step <= maxSteps; step += 1) {
      if (state.signal.aborted)
        return this.#finish(state, 'cancelled', loopText.cancelled, step - 1);
      const phase = phaseForStep(state.mode, step);
      const policy = toolPolicyForPhase(phase);
      notify(options.channel, this.#logger, 'onStep', { step, maxSteps, phase });
      const stepSpan = this.#tracer.startSpan(
        'agent.step',
        `step.${step}`,
        { step, phase, tool_policy: policy },
        state.rootSpan,
      );
      let response: LLMResponse;
      try {
        response = await this.#callModel(state, messages, {
          step,
          phase,
          tools: policy === 'auto' ? this.#tools.definitions(visible) : [],
          toolChoice: policy,
          span: stepSpan,
        });
      } catch (error) {
        stepSpan.end(state.signal.aborted ? 'cancelled' : 'error');
        if (state.signal.aborted) return this.#finish(state, 'cancelled', loopText.cancelled, step);
        const text = loopText.providerFailed(describeProviderError(error));
        this.#logger.error(text);
        return this.#finish(state, 'provider_error', text, step);
      }
      state.usage = addUsage(state.usage, response.usage);
      if (response.costUsd !== undefined) state.costUsd = (state.costUsd ?? 0) + response.costUsd;
      else if (response.usage) state.unpricedCall = true;
      state.model = response.model ?? state.model;
      const assistant = response.message;
      const calls = assistant.toolCalls ?? [];
      messages.push(msg.assistant(assistant.content, calls));
      lastText = assistant.content;
      notify(options.channel, this.#logger, 'onAssistantMessage', {
        step,
        text: assistant.content,
        toolCalls: calls.length,
      });

      if (calls.length === 0) {
        stepSpan.end('ok');
        if (assistant.content.trim() !== '') {
          return this.#finish(state, 'final', assistant.content, step, memory);
        }
        emptyTurns += 1;
        if (emptyTurns >= MAX_EMPTY_TURNS) {
          return this.#finish(state, 'provider_error', loopText.emptyTurnsStop(emptyTurns), step);
        }
        messages.push(msg.user(loopText.emptyTurnNudge));
        continue;
      }
      emptyTurns = 0;

      if (policy === 'none') {
        // Even refused calls get a result, so the history stays valid for any provider.
        for (const call of calls) {
          messages.push(
            msg.tool(call, loopText.toolsNotAllowed(phase), {
              is_error: true,
              error_type: 'tool_policy_blocked',
            }),
          );
        }
        stepSpan.end('error');
        return this.#finish(state, 'tool_policy_blocked', assistant.content, step, memory);
      }

      const outcome = await executeBatch(calls, {
        registry: this.#tools,
        workdir: options.session.workdir,
        session: options.session,
        runId: state.runId,
        failureTracker,
        signal: state.signal,
        visibleToolNames: visible,
        maxParallel: this.#maxParallel,
        logger: this.#logger,
        tracer: this.#tracer,
        parentSpan: stepSpan,
        ...(options.channel ? { channel: options.channel } : {}),
      });
      messages.push(...outcome.observations);
      if (outcome.loopBreaker) messages.push(outcome.loopBreaker);
      if (outcome.suspended) {
        stepSpan.end('ok');
        const { approvalId, checkpointId, content } = outcome.suspended;
        return this.#finish(state, 'approval_required', content, step, memory, {
          approvalId,
          checkpointId,
        });
      }
      stepSpan.end(outcome.cancelled ? 'cancelled' : 'ok');
      if (outcome.cancelled) return this.#finish(state, 'cancelled', loopText.cancelled, step);
    }
    return this.#finish(state, 'max_steps_exhausted', lastText, maxSteps, memory);
  }

  /**
   * One model call on a compacted copy of the history. A context-length error gets exactly one
   * retry after an aggressive compaction; the stored history is never changed.
   */
  async #callModel(
    state: RunState,
    history: readonly Message[],
    call: {
      step: number;
      phase: Phase;
      tools: ToolDefinition[];
      toolChoice: ToolPolicy;
      span: SpanHandle;
    },
  ): Promise<LLMResponse> {
    const attempt = (level: CompactionLevel) => {
      const { messages, report } = compactForRequest(history, this.#compaction, level);
      if (report.changed || report.overBudget) {
        call.span.addEvent('context.compacted', { ...report });
        const log = `context compacted level=${report.level} original_chars=${report.originalChars} compacted_chars=${report.compactedChars} max_chars=${report.maxChars} masked_tool_results=${report.maskedToolResults} truncated_tool_results=${report.truncatedToolResults} over_budget=${report.overBudget}`;
        if (report.overBudget) this.#logger.warn(log);
        else this.#logger.debug(log);
      }
      const scope = {
        sessionKey: state.options.session.key,
        runId: state.runId,
        mode: state.mode,
        phase: call.phase,
        step: call.step,
        caller: 'main_loop' as const,
        parentSpan: call.span,
      };
      return withModelCallScope(scope, () =>
        this.#provider.complete(
          {
            messages: [...messages],
            tools: call.tools,
            toolChoice: call.toolChoice,
            signal: state.signal,
            ...(this.#maxTokens === undefined ? {} : { maxTokens: this.#maxTokens }),
          },
          {
            signal: state.signal,
            onTextDelta: (text) => notify(state.options.channel, this.#logger, 'onTextDelta', text),
          },
        ),
      );
    };
    try {
      return await attempt('normal');
    } catch (error) {
      if (
        !(error instanceof ProviderError) ||
        error.kind !== 'context_length' ||
        state.signal.aborted
      )
        throw error;
      this.#logger.warn(
        'the model rejected the request as too long; retrying once after aggressive compaction',
      );
      return attempt('aggressive');
    }
  }

  async #finish(
    state: RunState,
    stopReason: StopReason,
    text: string,
    steps: number,
    memory?: { append(entries: Array<{ key: string; value: string }>): Promise<void> },
    extra: { approvalId?: string; checkpointId?: string } = {},
  ): Promise<RunResult> {
    if (memory) {
      await memory
        .append([
          { key: 'last_prompt', value: state.options.prompt },
          { key: 'last_response', value: text },
        ])
        .catch((error: unknown) => {
          this.#logger.warn(`memory could not be written: ${errorMessage(error)}`);
        });
    }
    state.rootSpan.setAttributes({ stop_reason: stopReason, steps });
    const status =
      stopReason === 'cancelled'
        ? 'cancelled'
        : stopReason === 'final' ||
            stopReason === 'max_steps_exhausted' ||
            stopReason === 'approval_required'
          ? 'ok'
          : 'error';
    const trace = await this.#tracer.finishRun(state.rootSpan, status).catch((error: unknown) => {
      this.#logger.warn(`trace could not be written: ${errorMessage(error)}`);
      return undefined;
    });
    const result: RunResult = {
      runId: state.runId,
      sessionKey: state.options.session.key,
      workdir: state.options.session.workdir,
      text,
      stopReason,
      steps,
      maxSteps: state.maxSteps,
      mode: state.mode,
      provider: this.#provider.name,
      model: state.model,
      usage: state.usage ?? null,
      ...(state.costUsd === undefined || state.unpricedCall ? {} : { costUsd: state.costUsd }),
      ...extra,
      ...(trace ? { traceId: trace.traceId } : {}),
      ...(trace?.tracePath ? { tracePath: trace.tracePath } : {}),
    };
    notify(state.options.channel, this.#logger, 'onDone', result);
    return result;
  }
}

function describeProviderError(error: unknown): string {
  if (TinyClawError.isInstance(error)) return error.message;
  return `${error instanceof Error ? error.name : 'Error'}: ${errorMessage(error)}`;
}
