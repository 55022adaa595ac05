import { randomUUID } from 'node:crypto';
import { type CompactionOptions, DEFAULT_COMPACTION } from '../context/compactor.js';
import { type BuiltContext, ContextBuilder } from '../context/context-builder.js';
import { ConfigurationError, errorMessage } from '../errors.js';
import { createFailureTracker } from '../executor/loop-breaker.js';
import { executeBatch } from '../executor/tool-executor.js';
import { type Message, msg } from '../messages.js';
import { type Channel, notify } from '../observe/channel.js';
import { type Logger, nullLogger } from '../observe/logger.js';
import { nullTracer, type SpanHandle, type Tracer } from '../observe/tracer.js';
import { PlanActRun } from '../plan/plan-act-run.js';
import type { PlanStore, PlanStoreFactory } from '../plan/plan-files.js';
import { addUsage, type LLMProvider, type LLMResponse, type LLMUsage } from '../provider.js';
import type { SessionRef } from '../session/session-ref.js';
import type { ToolRegistry } from '../tool-registry.js';
import { describeProviderError, errorTypeOf } from './error-names.js';
import type { RunMemoryFactory } from './memory-port.js';
import { callModel } from './model-call.js';
import { finishPlanning, type PlanStepHost, runPlanMode } from './plan-steps.js';
import { phaseForStep, toolPolicyForPhase } from './run-policy.js';
import type { RunMode, RunResult, StopReason } from './run-types.js';
import type { FinishOptions, ModelCallRequest, Turn } from './step-types.js';
import { loopText } from './strings.js';
import { refusedCallObservations, visibleTools } from './tool-visibility.js';

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
  /** The plan files of each session; required for the `plan` and `plan-act` modes. */
  plans?: PlanStoreFactory;
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
 * Modes: `act` (tools), `think` (no tools), `plan` (write or show the session's PLAN.md/TODO.md)
 * and `plan-act` (plan when there is no plan, then execute the TODO items one at a time, driven by
 * the model's `PLAN_STEP_STATUS:` marker). The plan modes need `plans`.
 *
 * @example
 * const loop = new MainLoop({ provider, tools: new ToolRegistry(), memory });
 * const result = await loop.run({ prompt: 'hello', session });
 *
 * @example
 * const planner = new MainLoop({ provider, tools, memory, plans: new FilePlanStoreFactory(stateDir) });
 * await planner.run({ prompt: 'add a CLI flag', session, mode: 'plan-act' });
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
  readonly #plans: PlanStoreFactory | undefined;

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
    this.#plans = options.plans;
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
    if ((mode === 'plan' || mode === 'plan-act') && !this.#plans) {
      throw new ConfigurationError(loopText.planStoreRequired(mode));
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
        {
          run_id: runId,
          mode,
          max_steps: maxSteps,
          provider: this.#provider.name,
          session_key: options.session.key,
          session_source: options.session.source,
          session_display_name: options.session.displayName,
          workdir: options.session.workdir,
        },
        { sessionKey: options.session.key, runId, sessionSource: options.session.source },
      ),
    };
    state.rootSpan.recordPayload('prompt', options.prompt);
    notify(options.channel, this.#logger, 'onStart', {
      runId,
      prompt: options.prompt,
      mode,
      maxSteps,
      provider: this.#provider.name,
    });
    try {
      return await this.#tracer.withSpan(state.rootSpan, () => this.#loop(state));
    } catch (error) {
      state.rootSpan.setAttributes({ error_type: errorTypeOf(error) });
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
    const host = this.#planStepHost(state, memories);
    if (state.mode === 'plan') {
      return runPlanMode(host, this.#planStore(options.session), memory);
    }

    let plan: PlanActRun | undefined;
    let opening: Message | undefined;
    if (state.mode === 'plan-act') {
      plan = new PlanActRun({
        store: this.#planStore(options.session),
        prompt: options.prompt,
        logger: this.#logger,
      });
      const start = await plan.start();
      // Nothing left to do is answered from the files alone: no model call, no memory line.
      if (start.kind === 'all_done') {
        return this.#finish(state, 'final', start.text, 0, { plan: plan.snapshot?.plan });
      }
      opening = start.message;
    }
    const context = await this.#buildContext(options, memories);
    const messages = context.messages;
    if (opening) messages.push(opening);
    const visible = visibleTools(this.#tools.names(), options.visibleTools, context.allowedTools);
    let lastText = '';
    let emptyTurns = 0;
    // Repeated identical failures are counted across the whole run, not per turn.
    const failureTracker = createFailureTracker();
    const currentPlan = () => plan?.snapshot?.plan;

    for (let step = 1; step <= maxSteps; step += 1) {
      if (state.signal.aborted)
        return this.#finish(state, 'cancelled', loopText.cancelled, step - 1, {
          plan: currentPlan(),
        });
      const phase = phaseForStep(state.mode, step, {
        planRequired: plan?.planning === 'create',
        replan: plan?.planning === 'replan',
      });
      const policy = toolPolicyForPhase(phase);
      notify(options.channel, this.#logger, 'onStep', { step, maxSteps, phase });
      const stepSpan = this.#tracer.startSpan(
        'agent.step',
        `step.${step}`,
        {
          step,
          phase,
          mode: state.mode,
          tool_policy: policy,
          visible_tools: policy === 'auto' ? visible.length : 0,
          message_count: messages.length,
        },
        state.rootSpan,
      );
      const turn = await this.#tracer.withSpan(stepSpan, () =>
        this.#modelTurn(state, messages, {
          step,
          phase,
          tools: policy === 'auto' ? this.#tools.definitions(visible) : [],
          toolChoice: policy,
          span: stepSpan,
        }),
      );
      if ('stopped' in turn) return turn.stopped;
      const { assistant, calls } = turn;
      lastText = assistant.content;

      if (phase === 'plan' && plan) {
        const planned = await finishPlanning(host, plan, turn, messages, {
          step,
          span: stepSpan,
          memory,
        });
        if (planned) return planned;
        continue;
      }

      if (calls.length === 0) {
        stepSpan.end('ok');
        if (assistant.content.trim() !== '') {
          if (plan?.current) {
            const verdict = await plan.settle(assistant.content, { stepsLeft: step < maxSteps });
            if (verdict.kind === 'continue') {
              emptyTurns = 0;
              messages.push(verdict.message);
              continue;
            }
            return this.#finish(state, verdict.stopReason, assistant.content, step, {
              memory,
              plan: currentPlan(),
            });
          }
          return this.#finish(state, 'final', assistant.content, step, {
            memory,
            plan: currentPlan(),
          });
        }
        emptyTurns += 1;
        if (emptyTurns >= MAX_EMPTY_TURNS) {
          return this.#finish(state, 'provider_error', loopText.emptyTurnsStop(emptyTurns), step, {
            plan: currentPlan(),
          });
        }
        messages.push(msg.user(loopText.emptyTurnNudge));
        continue;
      }
      emptyTurns = 0;

      if (policy === 'none') {
        messages.push(...refusedCallObservations(calls, phase));
        stepSpan.end('error');
        return this.#finish(state, 'tool_policy_blocked', assistant.content, step, { memory });
      }

      const outcome = await this.#tracer.withSpan(stepSpan, () =>
        executeBatch(calls, {
          registry: this.#tools,
          workdir: options.session.workdir,
          session: options.session,
          runId: state.runId,
          failureTracker,
          signal: state.signal,
          visibleTools: visible,
          maxParallel: this.#maxParallel,
          logger: this.#logger,
          tracer: this.#tracer,
          parentSpan: stepSpan,
          ...(options.channel ? { channel: options.channel } : {}),
        }),
      );
      messages.push(...outcome.observations);
      plan?.noteObservations(outcome.observations);
      if (outcome.loopBreaker) messages.push(outcome.loopBreaker);
      if (outcome.suspended) {
        stepSpan.end('ok');
        const { approvalId, checkpointId, content } = outcome.suspended;
        return this.#finish(state, 'approval_required', content, step, {
          memory,
          approvalId,
          checkpointId,
          plan: currentPlan(),
        });
      }
      stepSpan.end(outcome.cancelled ? 'cancelled' : 'ok');
      if (outcome.cancelled) {
        return this.#finish(state, 'cancelled', loopText.cancelled, step, { plan: currentPlan() });
      }
    }
    return this.#finish(state, 'max_steps_exhausted', lastText, maxSteps, {
      memory,
      plan: currentPlan(),
    });
  }

  /** The loop's services for the plan steps of one run. */
  #planStepHost(state: RunState, memories: readonly string[]): PlanStepHost {
    return {
      maxSteps: state.maxSteps,
      prompt: state.options.prompt,
      signal: state.signal,
      logger: this.#logger,
      finish: (stopReason, text, steps, options) =>
        this.#finish(state, stopReason, text, steps, options),
      modelTurn: (messages, call) => this.#modelTurn(state, messages, call),
      buildContext: () => this.#buildContext(state.options, memories),
      startStep: (step, phase, policy) => {
        notify(state.options.channel, this.#logger, 'onStep', {
          step,
          maxSteps: state.maxSteps,
          phase,
        });
        return this.#tracer.startSpan(
          'agent.step',
          `step.${step}`,
          { step, phase, mode: state.mode, tool_policy: policy },
          state.rootSpan,
        );
      },
    };
  }

  /**
   * Ask the model once and append its answer to the history. A provider failure or a cancellation
   * ends the run: the result is returned as `stopped`.
   */
  async #modelTurn(state: RunState, messages: Message[], call: ModelCallRequest): Promise<Turn> {
    let response: LLMResponse;
    try {
      response = await callModel(
        {
          provider: this.#provider,
          compaction: this.#compaction,
          maxTokens: this.#maxTokens,
          logger: this.#logger,
        },
        {
          history: messages,
          tools: call.tools,
          toolChoice: call.toolChoice,
          span: call.span,
          signal: state.signal,
          scope: {
            sessionKey: state.options.session.key,
            runId: state.runId,
            mode: state.mode,
            phase: call.phase,
            step: call.step,
            caller: 'main_loop',
          },
          onTextDelta: (text) => notify(state.options.channel, this.#logger, 'onTextDelta', text),
        },
      );
    } catch (error) {
      call.span.end(state.signal.aborted ? 'cancelled' : 'error');
      if (state.signal.aborted) {
        return { stopped: await this.#finish(state, 'cancelled', loopText.cancelled, call.step) };
      }
      const text = loopText.providerFailed(describeProviderError(error));
      state.rootSpan.setAttributes({ error_type: errorTypeOf(error) });
      // The text is the result: whoever shows the result shows it once.
      this.#logger.debug(text);
      return { stopped: await this.#finish(state, 'provider_error', text, call.step) };
    }
    state.usage = addUsage(state.usage, response.usage);
    if (response.costUsd !== undefined) state.costUsd = (state.costUsd ?? 0) + response.costUsd;
    else if (response.usage) state.unpricedCall = true;
    state.model = response.model ?? state.model;
    const assistant = response.message;
    const calls = assistant.toolCalls ?? [];
    call.span.setAttributes({
      provider: response.provider,
      tool_calls: calls.length,
      assistant_text_chars: assistant.content.length,
    });
    const stored = msg.assistant(assistant.content, calls);
    messages.push(stored);
    notify(state.options.channel, this.#logger, 'onAssistantMessage', {
      step: call.step,
      text: assistant.content,
      toolCalls: calls.length,
    });
    return { assistant: stored, calls };
  }

  #planStore(session: SessionRef): PlanStore {
    if (!this.#plans) throw new ConfigurationError(loopText.planStoreRequired('plan'));
    return this.#plans.forSession(session);
  }

  /** Build the run's opening messages, logging what the builder skipped (bad skills, …). */
  async #buildContext(options: RunOptions, memories: readonly string[]): Promise<BuiltContext> {
    const built = await this.#context.build({
      prompt: options.prompt,
      memories,
      workdir: options.session.workdir,
    });
    for (const warning of built.warnings) this.#logger.warn(warning);
    if (built.selectedSkill) this.#logger.info(`skill selected name=${built.selectedSkill.name}`);
    return built;
  }

  async #finish(
    state: RunState,
    stopReason: StopReason,
    text: string,
    steps: number,
    options: FinishOptions = {},
  ): Promise<RunResult> {
    const { memory, memoryResponse, approvalId, checkpointId, plan } = options;
    if (memory) {
      await memory
        .append([
          { key: 'last_prompt', value: state.options.prompt },
          { key: 'last_response', value: memoryResponse ?? text },
        ])
        .catch((error: unknown) => {
          this.#logger.warn(`memory could not be written: ${errorMessage(error)}`);
        });
    }
    state.rootSpan.setAttributes({
      stop_reason: stopReason,
      steps,
      model: state.model,
      approval_id: approvalId,
      checkpoint_id: checkpointId,
      result_text_chars: text.length,
    });
    state.rootSpan.recordPayload('result_text', text);
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
      ...(plan === undefined ? {} : { plan }),
      ...(approvalId === undefined ? {} : { approvalId }),
      ...(checkpointId === undefined ? {} : { checkpointId }),
      ...(trace ? { traceId: trace.traceId } : {}),
      ...(trace?.tracePath ? { tracePath: trace.tracePath } : {}),
    };
    notify(state.options.channel, this.#logger, 'onDone', result);
    return result;
  }
}
