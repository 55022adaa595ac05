import type { CompactionReport } from '../context/compactor.js';
import type { RunState } from '../loop/run-state.js';
import type { Phase, RunMode, RunResult } from '../loop/run-types.js';
import type { Message, ToolCall, ToolDefinition } from '../messages.js';
import type { LLMUsage, ToolChoice } from '../provider.js';
import type { SessionRef } from '../session/session-ref.js';
import type { ToolOutput } from '../tool.js';

/**
 * Who started a run: the main loop, an approval resume, or a subagent inside a tool call.
 *
 * @example
 * const caller: RunCaller = 'subagent';
 */
export const runCallers = ['main_loop', 'approval_resume', 'subagent'] as const;

/**
 * One of {@link runCallers}.
 *
 * @example
 * if (event.type === 'run.start' && event.caller === 'subagent') indent += 1;
 */
export type RunCaller = (typeof runCallers)[number];

/**
 * What every run event carries: the run it belongs to and, for a nested run's events (a
 * subagent's, re-emitted in the stream of the run that started it), that calling run's id.
 *
 * @example
 * if (event.type === 'run.finish' && event.parentRunId === undefined) console.log('done');
 */
export interface RunEventBase {
  runId: string;
  /**
   * The id of the run that started this event's run, on every event of a nested run (its
   * `run.start` and `run.finish` included); absent on the events of the run you started. Stop
   * at the first `run.finish` without it, never at a nested one.
   */
  parentRunId?: string;
}

/** A run began. A nested run (a subagent) names the run and tool call it belongs to. */
export interface RunStartEvent extends RunEventBase {
  type: 'run.start';
  session: SessionRef;
  mode: RunMode;
  maxSteps: number;
  provider: string;
  model: string | null;
  prompt: string;
  caller: RunCaller;
  parent?: { runId: string; toolCallId: string };
}

/** A step began: what the model is offered on it. */
export interface StepStartEvent extends RunEventBase {
  type: 'step.start';
  step: number;
  maxSteps: number;
  phase: Phase;
  toolChoice: ToolChoice;
  /** Names of the tools offered on this step (none when `toolChoice` is `none`). */
  tools: string[];
  /** Messages in the stored history when the step began. */
  messageCount: number;
}

/** A piece of assistant text, as the provider streams it. */
export interface TextDeltaEvent extends RunEventBase {
  type: 'text.delta';
  step: number;
  text: string;
}

/** A model call is about to be sent (a step may make a second one after a context-length error). */
export interface ModelStartEvent extends RunEventBase {
  type: 'model.start';
  step: number;
  /** 1 for the first call of the step, 2 for the retry after aggressive compaction. */
  attempt: number;
  provider: string;
  /** The request as sent: the compacted messages and the offered tools. */
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
  toolChoice: ToolChoice;
  /** Present when the compactor changed the request or it is still over budget. */
  compaction?: CompactionReport;
}

/** A model call answered. */
export interface ModelResponseEvent extends RunEventBase {
  type: 'model.response';
  step: number;
  attempt: number;
  message: Message;
  provider: string;
  model: string | null;
  usage?: LLMUsage;
  /** Estimated cost in USD, when a price is known. */
  costUsd?: number;
  latencyMs: number;
  stopReason?: string;
}

/** A model call failed (the run may still retry once, or stop). */
export interface ModelErrorEvent extends RunEventBase {
  type: 'model.error';
  step: number;
  attempt: number;
  provider: string;
  /** A short machine name: the provider error's kind (`rate_limit`, …) or the error's class name. */
  errorType: string;
  /** One line, without secrets; safe to show a person. */
  message: string;
  /** True when the call ended because the run was cancelled. */
  cancelled: boolean;
  latencyMs: number;
}

/** A tool call is about to run. `index` is its position in the assistant turn. */
export interface ToolStartEvent extends RunEventBase {
  type: 'tool.start';
  step: number;
  call: ToolCall;
  index: number;
}

/** A tool call ended. */
export interface ToolEndEvent extends RunEventBase {
  type: 'tool.end';
  step: number;
  call: ToolCall;
  index: number;
  status: 'completed' | 'denied' | 'suspended';
  /** The tool's own words: what a person watching should see. */
  output: ToolOutput;
  /** What the model reads (failures are rewritten as guidance). */
  observation: ToolOutput;
  latencyMs: number;
  /** True when a repeated identical failing call was answered without running it. */
  blocked: boolean;
}

/** A tool call is waiting for a person's decision; the run stops with `approval_required`. */
export interface ApprovalRequiredEvent extends RunEventBase {
  type: 'approval.required';
  step: number;
  call: ToolCall;
  index: number;
  approvalId: string;
  checkpointId: string;
  /** What the approval middleware said about the call. */
  summary: string;
}

/**
 * A resumed run starts from a person's decision on the call that paused it (the first event after
 * `run.start` of a run whose caller is `approval_resume`).
 */
export interface ApprovalResumedEvent extends RunEventBase {
  type: 'approval.resumed';
  approvalId: string;
  checkpointId: string;
  decision: 'approve' | 'reject';
  actor: string;
  reason?: string;
  /** Milliseconds between the request and the decision. */
  waitMs: number;
  call: ToolCall;
}

/** The run ended; always the last event of a run. */
export interface RunFinishEvent extends RunEventBase {
  type: 'run.finish';
  result: RunResult;
  /**
   * The run's state as it ended: the full history (every tool call answered, unless the run
   * paused with calls pending), step count and totals. Read it; do not change it.
   */
  state: Readonly<RunState>;
}

/**
 * Everything that happens in a run, as one typed stream: the terminal output, the tracer, usage
 * totals and chat progress all consume it. Events of nested runs (subagents) travel in the same
 * stream with their own `runId` and the calling run's id as `parentRunId`.
 *
 * @example
 * for await (const event of agent.stream('rename foo to bar')) {
 *   if (event.type === 'tool.start') console.log('→', event.call.name);
 *   if (event.type === 'run.finish') console.log(event.result.stopReason);
 * }
 */
export type RunEvent =
  | RunStartEvent
  | StepStartEvent
  | TextDeltaEvent
  | ModelStartEvent
  | ModelResponseEvent
  | ModelErrorEvent
  | ToolStartEvent
  | ToolEndEvent
  | ApprovalRequiredEvent
  | ApprovalResumedEvent
  | RunFinishEvent;

/**
 * Receives run events as they happen. It may return a promise (e.g. a file write): the run waits
 * for it before it resolves, but never fails because of it — errors are logged.
 *
 * @example
 * const log: RunEventListener = (event) => console.error(event.type);
 */
export type RunEventListener = (event: RunEvent) => void | Promise<void>;
