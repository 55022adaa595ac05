import { performance } from 'node:perf_hooks';
import type { ApprovalGrant } from '../approval/approval-gate.js';
import { errorMessage } from '../errors.js';
import { type JsonObject, type Message, msg, type ToolCall } from '../messages.js';
import type { EventBus } from '../observe/event-bus.js';
import type { Logger } from '../observe/logger.js';
import type { SessionRef } from '../session/session-ref.js';
import type { SubagentHost, SuspendedRequest, ToolExecutionResult, ToolOutput } from '../tool.js';
import type { ToolRegistry } from '../tool-registry.js';
import { translateFailure } from './failure-guidance.js';
import {
  blockedCallOutput,
  createFailureTracker,
  type FailureTracker,
  failureKey,
  loopBreakerMessage,
} from './loop-breaker.js';
import { runWithLimit } from './run-with-limit.js';
import { executorText } from './strings.js';

/**
 * Everything one batch of tool calls needs.
 *
 * @example
 * const options: ExecuteBatchOptions = { registry, runId, step: 1, workdir, signal, visibleTools, maxParallel: 4, events, logger };
 */
export interface ExecuteBatchOptions {
  registry: ToolRegistry;
  runId: string;
  /** The step the batch belongs to, for its events. */
  step: number;
  workdir: string;
  session?: SessionRef;
  signal: AbortSignal;
  visibleTools: readonly string[];
  /** Cap on concurrently running parallel-safe calls (≥ 1). */
  maxParallel: number;
  /** Receives `tool.start`, `tool.end` and `approval.required` for every call that runs. */
  events: EventBus;
  logger: Logger;
  /** Who asked for the run, handed to the middlewares with every call. */
  requestedBy?: string;
  /** Where the run was asked for, handed to the middlewares with every call. */
  origin?: string;
  /** The grants of approved calls, by call id: each goes to the middlewares with its call only. */
  grants?: ReadonlyMap<string, ApprovalGrant>;
  /**
   * Each call's position in its assistant turn, when the batch is only part of the turn (the calls
   * left after a pause); default: the position in `calls`.
   */
  positions?: readonly number[];
  /**
   * Failure counts of the whole run. Pass the same tracker to every batch of a run so a repeated
   * failing call is noticed across turns; when absent, this batch gets a fresh one.
   */
  failureTracker?: FailureTracker;
  /** Gives each call a way to start child runs nested under it (see `ToolContext.subagents`). */
  subagents?: (toolCallId: string) => SubagentHost;
  /** False in a run that cannot pause for approval (see `ToolExecutionContext.pausable`). */
  pausable?: boolean;
}

/**
 * What happened to a batch: one observation per call that got an answer, in the model's order.
 *
 * @example
 * const { observations, suspended, cancelled } = await executeBatch(calls, options);
 */
export interface BatchOutcome {
  observations: Message[];
  /**
   * Set when a call paused for approval: the first such call. The calls without an observation
   * (this one, any other the same group paused, and every later group, which did not run) are
   * the ones still to answer.
   */
  suspended?: {
    callId: string;
    index: number;
    approvalId: string;
    checkpointId: string;
    content: string;
    request?: SuspendedRequest;
  };
  /** True when the signal fired; every call that did not run got a `cancelled` observation. */
  cancelled: boolean;
  /**
   * Set when an identical failing call was blocked in this batch: a user message to append after
   * `observations` (never between them, which would break the tool-result sequence). Not set on a
   * suspended batch: there the blocked call's own observation already carries the warning.
   */
  loopBreaker?: Message;
}

/**
 * Run the tool calls of one assistant turn. Consecutive parallel-safe calls run concurrently (up to
 * `maxParallel`); any other call is a barrier that runs alone after everything before it.
 * Observations always come back in the model's order.
 *
 * @example
 * const { observations } = await executeBatch(response.message.toolCalls ?? [], options);
 */
export async function executeBatch(
  calls: readonly ToolCall[],
  options: ExecuteBatchOptions,
): Promise<BatchOutcome> {
  const observations: Message[] = [];
  const tracker = options.failureTracker ?? createFailureTracker();
  const groups = groupCalls(calls, options.registry, options.positions);
  let blocked: Blocked | undefined;
  for (const group of groups) {
    if (options.signal.aborted) {
      for (const { call } of group) observations.push(cancelledObservation(call));
      continue;
    }
    const results = await runWithLimit(
      group,
      group.length > 1 ? options.maxParallel : 1,
      ({ call, index }) => runOne(call, index, options, tracker),
    );
    let paused: { entry: IndexedCall; result: Suspended } | undefined;
    results.forEach((result, i) => {
      if (result.kind === 'answered') {
        observations.push(result.observation);
        blocked ??= result.blocked;
      } else {
        paused ??= { entry: group[i] as IndexedCall, result };
      }
    });
    if (paused) {
      const { entry, result } = paused;
      return {
        observations,
        suspended: { callId: entry.call.id, index: entry.index, ...result.suspension },
        cancelled: false,
      };
    }
  }
  const outcome: BatchOutcome = { observations, cancelled: options.signal.aborted };
  if (blocked) outcome.loopBreaker = loopBreakerMessage(blocked.tool, blocked.attempt);
  return outcome;
}

interface IndexedCall {
  call: ToolCall;
  index: number;
}

/** A repeated failing call answered without running: the loop breaker's data. */
type Blocked = { tool: string; attempt: number };
type Answered = { kind: 'answered'; observation: Message; blocked?: Blocked };
type Suspended = {
  kind: 'suspended';
  suspension: {
    approvalId: string;
    checkpointId: string;
    content: string;
    request?: SuspendedRequest;
  };
};
type CallResult = Answered | Suspended;

function groupCalls(
  calls: readonly ToolCall[],
  registry: ToolRegistry,
  positions: readonly number[] | undefined,
): IndexedCall[][] {
  const groups: IndexedCall[][] = [];
  let parallel: IndexedCall[] = [];
  calls.forEach((call, i) => {
    const index = positions?.[i] ?? i;
    if (registry.get(call.name)?.parallelSafe) {
      parallel.push({ call, index });
      return;
    }
    if (parallel.length > 0) groups.push(parallel);
    parallel = [];
    groups.push([{ call, index }]);
  });
  if (parallel.length > 0) groups.push(parallel);
  return groups;
}

async function runOne(
  call: ToolCall,
  index: number,
  options: ExecuteBatchOptions,
  tracker: FailureTracker,
): Promise<CallResult> {
  const { events, logger, runId, step } = options;
  if (options.signal.aborted) return { kind: 'answered', observation: cancelledObservation(call) };
  const key = failureKey(call);
  if (tracker.shouldBlock(key)) return blockCall(call, index, key, options, tracker);
  events.emit({ type: 'tool.start', runId, step, call, index });
  const started = performance.now();
  let result: ToolExecutionResult;
  try {
    result = await options.registry.execute({
      call,
      workdir: options.workdir,
      signal: options.signal,
      visibleTools: options.visibleTools,
      metadata: { tool_call_index: index },
      runId,
      ...(options.requestedBy === undefined ? {} : { requestedBy: options.requestedBy }),
      ...(options.origin === undefined ? {} : { origin: options.origin }),
      ...(grantFor(call, options) ?? {}),
      ...(options.session ? { session: options.session } : {}),
      ...(options.subagents ? { subagents: options.subagents(call.id) } : {}),
      ...(options.pausable === false ? { pausable: false } : {}),
    });
  } catch (error) {
    // A tool or middleware bug must never crash the run: the model gets an error observation.
    logger.warn(`tool ${call.name} threw: ${errorMessage(error)}`);
    result = {
      status: 'completed',
      output: {
        content: executorText.unexpectedFailure(call.name, errorMessage(error)),
        isError: true,
        failure: { kind: 'execution_error' },
      },
    };
  }
  const observed = adviseOnFailure(call, result, key, options, tracker);
  events.emit({
    type: 'tool.end',
    runId,
    step,
    call,
    index,
    status: result.status,
    // People watching get the tool's own words; the guidance is written for the model.
    output: result.output,
    observation: observed,
    latencyMs: Math.max(0, Math.round(performance.now() - started)),
    blocked: false,
  });
  if (result.status === 'suspended') {
    const content = observed.content || executorText.approvalRequired;
    events.emit({
      type: 'approval.required',
      runId,
      step,
      call,
      index,
      approvalId: result.approvalId,
      checkpointId: result.checkpointId,
      summary: content,
    });
    return {
      kind: 'suspended',
      suspension: {
        approvalId: result.approvalId,
        checkpointId: result.checkpointId,
        content,
        ...(result.request === undefined ? {} : { request: result.request }),
      },
    };
  }
  return { kind: 'answered', observation: observation(call, index, observed) };
}

/**
 * Count the outcome against the call's key and, for a failure, replace the output with the SOP
 * observation. Denials are the policy speaking, not the model failing, so they neither count nor
 * get advice; suspensions and cancellations pass through untouched.
 */
function adviseOnFailure(
  call: ToolCall,
  result: ToolExecutionResult,
  key: string,
  options: ExecuteBatchOptions,
  tracker: FailureTracker,
): ToolOutput {
  const { output } = result;
  if (result.status !== 'completed') return output;
  if (!output.isError) {
    tracker.recordSuccess(key);
    return output;
  }
  // A call cut short by cancellation says nothing about the model's choice of arguments.
  if (output.failure?.kind === 'cancelled' || options.signal.aborted) return output;
  const attempt = tracker.recordFailure(key);
  const translated = translateFailure(
    { call, output, visibleTools: options.visibleTools },
    attempt,
  );
  // A model mistake is routine, not an operator problem: keep it out of the default log level.
  options.logger.debug(
    executorText.guidanceLog({
      tool: call.name,
      errorType: translated.guidance.kind,
      attempt,
      retryable: translated.guidance.retryable,
      suggestedTool: translated.guidance.suggestedTool,
    }),
  );
  return translated.output;
}

/** Answer a repeated failing call without running it; it still counts, so later repeats stay blocked. */
function blockCall(
  call: ToolCall,
  index: number,
  key: string,
  options: ExecuteBatchOptions,
  tracker: FailureTracker,
): CallResult {
  const { events, runId, step } = options;
  const attempt = tracker.recordFailure(key);
  options.logger.warn(executorText.blockedLog(call.name, attempt));
  const output = blockedCallOutput(call, attempt);
  events.emit({ type: 'tool.start', runId, step, call, index });
  events.emit({
    type: 'tool.end',
    runId,
    step,
    call,
    index,
    status: 'completed',
    output,
    observation: output,
    latencyMs: 0,
    blocked: true,
  });
  return {
    kind: 'answered',
    observation: observation(call, index, output),
    blocked: { tool: call.name, attempt },
  };
}

/** The approval grant of `call`, as the context field it travels in, when it has one. */
function grantFor(
  call: ToolCall,
  options: ExecuteBatchOptions,
): { approval: ApprovalGrant } | undefined {
  const grant = options.grants?.get(call.id);
  return grant === undefined ? undefined : { approval: grant };
}

/**
 * The tool result the model reads. Its metadata is the tool's own details plus the loop's note of
 * the call's place in the turn; how the call failed is in the event's typed output, not here.
 */
function observation(call: ToolCall, index: number, output: ToolOutput): Message {
  const metadata: JsonObject = { ...output.metadata, tool_call_index: index };
  return msg.tool(call, output.content, {
    isError: output.isError,
    ...(output.footerChars === undefined ? {} : { footerChars: output.footerChars }),
    metadata,
  });
}

function cancelledObservation(call: ToolCall): Message {
  return msg.tool(call, executorText.cancelled, { isError: true });
}
