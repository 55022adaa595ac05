import type { BuiltContext } from '../context/context-builder.js';
import { type Message, msg, type ToolCall } from '../messages.js';
import type { Logger } from '../observe/logger.js';
import type { SpanHandle } from '../observe/tracer.js';
import type { PlanActRun } from '../plan/plan-act-run.js';
import type { PlanStore } from '../plan/plan-files.js';
import { createPlanPrompt } from '../plan/plan-prompts.js';
import { renderAllDone, renderPlan, renderPlanMemory } from '../plan/plan-render.js';
import { planFilesFromResponse } from '../plan/plan-response.js';
import type { RunMemory } from './memory-port.js';
import type { Phase, RunResult, StopReason, ToolPolicy } from './run-types.js';
import type { FinishOptions, ModelCallRequest, Turn } from './step-types.js';
import { loopText } from './strings.js';
import { refusedCallObservations } from './tool-visibility.js';

/** What the plan steps need from the running loop. */
export interface PlanStepHost {
  readonly maxSteps: number;
  readonly prompt: string;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  finish(
    stopReason: StopReason,
    text: string,
    steps: number,
    options?: FinishOptions,
  ): Promise<RunResult>;
  modelTurn(messages: Message[], call: ModelCallRequest): Promise<Turn>;
  buildContext(): Promise<BuiltContext>;
  /** Start the span of a step and tell the channel about it. */
  startStep(step: number, phase: Phase, policy: ToolPolicy): SpanHandle;
}

/**
 * Mode `plan`: one step. An existing plan is shown without calling the model; otherwise the model
 * writes one (no tools offered, a tool call ends the run) and the missing files are created.
 *
 * @example
 * return runPlanMode(host, plans.forSession(session), memory);
 */
export async function runPlanMode(
  host: PlanStepHost,
  store: PlanStore,
  memory: RunMemory,
): Promise<RunResult> {
  const phase = 'plan';
  const span = host.startStep(1, phase, 'none');
  const existing = await store.read();
  if (existing) {
    span.end('ok');
    return host.finish('final', renderPlan(existing), 1, {
      memory,
      memoryResponse: renderPlanMemory(existing),
      plan: existing.plan,
    });
  }
  if (host.signal.aborted) {
    span.end('cancelled');
    return host.finish('cancelled', loopText.cancelled, 0);
  }
  const { messages } = await host.buildContext();
  messages.push(msg.system(createPlanPrompt()));
  const turn = await host.modelTurn(messages, {
    step: 1,
    phase,
    tools: [],
    toolChoice: 'none',
    span,
  });
  if ('stopped' in turn) return turn.stopped;
  const { assistant, calls } = turn;
  if (calls.length > 0) {
    messages.push(...refusedCallObservations(calls, phase));
    span.end('error');
    return host.finish('tool_policy_blocked', assistant.content, 1, { memory });
  }
  const snapshot = await store.createMissing(planFilesFromResponse(assistant.content, host.prompt));
  host.logger.info(`plan created dir=${snapshot.dir} todos=${snapshot.items.length}`);
  span.end('ok');
  return host.finish('final', renderPlan(snapshot), 1, { memory, plan: snapshot.plan });
}

/**
 * The plan-act planning step answered: refuse any tool call, else store the (revised) plan and
 * queue the next TODO. Returns the result when the run ends here, undefined to go on.
 *
 * @example
 * const ended = await finishPlanning(host, plan, turn, messages, { step, span, memory });
 */
export async function finishPlanning(
  host: PlanStepHost,
  plan: PlanActRun,
  turn: { assistant: Message; calls: ToolCall[] },
  messages: Message[],
  at: { step: number; span: SpanHandle; memory: RunMemory },
): Promise<RunResult | undefined> {
  const { step, span, memory } = at;
  if (turn.calls.length > 0) {
    messages.push(...refusedCallObservations(turn.calls, 'plan'));
    span.end('error');
    return host.finish('tool_policy_blocked', turn.assistant.content, step, {
      memory,
      plan: plan.snapshot?.plan,
    });
  }
  const snapshot = await plan.applyPlan(turn.assistant.content);
  span.end('ok');
  // Planning is a step like any other: with none left, the run ends with the plan written.
  if (step === host.maxSteps) {
    return host.finish('max_steps_exhausted', renderPlan(snapshot), step, {
      memory,
      plan: snapshot.plan,
    });
  }
  const next = plan.beginNext();
  if (!next) {
    return host.finish('final', renderAllDone(snapshot), step, { memory, plan: snapshot.plan });
  }
  messages.push(next);
  return undefined;
}
