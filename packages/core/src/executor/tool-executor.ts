import { errorMessage } from '../errors.js';
import { type Message, msg, type ToolCall } from '../messages.js';
import { type Channel, notify } from '../observe/channel.js';
import type { Logger } from '../observe/logger.js';
import type { SpanHandle, Tracer } from '../observe/tracer.js';
import type { SessionRef } from '../session/session-ref.js';
import type { ToolExecutionResult, ToolOutput } from '../tool.js';
import type { ToolMetadata } from '../tool-metadata.js';
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

/** Everything one batch of tool calls needs. */
export interface ExecuteBatchOptions {
  registry: ToolRegistry;
  workdir: string;
  session?: SessionRef;
  runId?: string;
  signal: AbortSignal;
  visibleTools: readonly string[];
  /** Cap on concurrently running parallel-safe calls (≥ 1). */
  maxParallel: number;
  channel?: Channel;
  logger: Logger;
  tracer: Tracer;
  parentSpan?: SpanHandle;
  /** Extra metadata handed to middlewares with every call (e.g. the checkpoint draft). */
  metadata?: ToolMetadata;
  /**
   * Failure counts of the whole run. Pass the same tracker to every batch of a run so a repeated
   * failing call is noticed across turns; when absent, this batch gets a fresh one.
   */
  failureTracker?: FailureTracker;
}

/** What happened to a batch: one observation per call that got an answer, in the model's order. */
export interface BatchOutcome {
  observations: Message[];
  /**
   * Set when a call paused for approval. `pending` lists the calls of the turn that have no
   * observation yet (the paused one first), so whoever resumes can answer every one of them.
   */
  suspended?: {
    index: number;
    approvalId: string;
    checkpointId: string;
    content: string;
    pending: ToolCall[];
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
  const groups = groupCalls(calls, options.registry);
  for (const [g, group] of groups.entries()) {
    if (options.signal.aborted) {
      for (const { call } of group) observations.push(cancelledObservation(call));
      continue;
    }
    const results = await runWithLimit(
      group,
      group.length > 1 ? options.maxParallel : 1,
      ({ call, index }) => runOne(call, index, options, tracker),
    );
    const paused: Array<{ entry: IndexedCall; result: Suspended }> = [];
    results.forEach((result, i) => {
      if (result.kind === 'answered') observations.push(result.observation);
      else paused.push({ entry: group[i] as IndexedCall, result });
    });
    const first = paused[0];
    if (first) {
      const later = groups.slice(g + 1).flat();
      return {
        observations,
        suspended: {
          index: first.entry.index,
          ...first.result.suspension,
          pending: [...paused.map((p) => p.entry.call), ...later.map((e) => e.call)],
        },
        cancelled: false,
      };
    }
  }
  const outcome: BatchOutcome = { observations, cancelled: options.signal.aborted };
  const blocked = observations.find((m) => m.metadata?.doom_loop_detected === true);
  if (blocked) {
    outcome.loopBreaker = loopBreakerMessage(
      String(blocked.metadata?.doom_loop_tool ?? blocked.name),
      Number(blocked.metadata?.attempt),
    );
  }
  return outcome;
}

interface IndexedCall {
  call: ToolCall;
  index: number;
}

type Answered = { kind: 'answered'; observation: Message };
type Suspended = {
  kind: 'suspended';
  suspension: { approvalId: string; checkpointId: string; content: string };
};
type CallResult = Answered | Suspended;

function groupCalls(calls: readonly ToolCall[], registry: ToolRegistry): IndexedCall[][] {
  const groups: IndexedCall[][] = [];
  let parallel: IndexedCall[] = [];
  calls.forEach((call, index) => {
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
  const { channel, logger } = options;
  if (options.signal.aborted) return { kind: 'answered', observation: cancelledObservation(call) };
  const key = failureKey(call);
  if (tracker.shouldBlock(key)) return blockCall(call, index, key, options, tracker);
  notify(channel, logger, 'onToolCall', { call, index });
  const span = startToolSpan(call, index, options);
  const started = performance.now();
  let result: ToolExecutionResult;
  try {
    // The tool runs inside its span, so a subagent it starts nests under this tool.call.
    result = await options.tracer.withSpan(span, () =>
      options.registry.execute({
        call,
        workdir: options.workdir,
        signal: options.signal,
        visibleTools: options.visibleTools,
        metadata: { ...options.metadata, tool_call_index: index },
        ...(options.session ? { session: options.session } : {}),
        ...(options.runId ? { runId: options.runId } : {}),
      }),
    );
  } catch (error) {
    // A tool or middleware bug must never crash the run: the model gets an error observation.
    logger.warn(`tool ${call.name} threw: ${errorMessage(error)}`);
    result = {
      status: 'completed',
      output: {
        content: executorText.unexpectedFailure(call.name, errorMessage(error)),
        isError: true,
        metadata: { error_type: 'execution_error' },
      },
    };
  }
  const output = adviseOnFailure(call, result, key, options, tracker);
  endToolSpan(span, call, output, result, Math.round(performance.now() - started), options);
  // People watching get the tool's own words; the SOP rewrite is written for the model.
  notify(channel, logger, 'onToolResult', { call, index, output: result.output });
  if (result.status === 'suspended') {
    return {
      kind: 'suspended',
      suspension: {
        approvalId: result.approvalId,
        checkpointId: result.checkpointId,
        content: output.content || executorText.approvalRequired,
      },
    };
  }
  return { kind: 'answered', observation: observation(call, index, output, result) };
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
  if (output.metadata?.error_type === 'cancelled' || options.signal.aborted) return output;
  const attempt = tracker.recordFailure(key);
  const translated = translateFailure(
    { call, output, visibleTools: options.visibleTools },
    attempt,
  );
  // A model mistake is routine, not an operator problem: keep it out of the default log level.
  options.logger.debug(
    executorText.guidanceLog({
      tool: call.name,
      errorType: translated.guidance.category,
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
  const { channel, logger } = options;
  const attempt = tracker.recordFailure(key);
  logger.warn(executorText.blockedLog(call.name, attempt));
  notify(channel, logger, 'onToolCall', { call, index });
  const span = startToolSpan(call, index, options);
  const output = blockedCallOutput(call, attempt);
  span.setAttributes({ blocked: true });
  endToolSpan(span, call, output, { status: 'completed', output }, 0, options);
  notify(channel, logger, 'onToolResult', { call, index, output });
  return {
    kind: 'answered',
    observation: observation(call, index, output, { status: 'completed', output }),
  };
}

/**
 * Open the `tool.call` span under the step (explicit parent: parallel calls run concurrently, so
 * "the current span" would be ambiguous). `tool_call_index` orders the step's children.
 */
function startToolSpan(call: ToolCall, index: number, options: ExecuteBatchOptions): SpanHandle {
  const span = options.tracer.startSpan(
    'tool.call',
    `tool.${call.name}`,
    {
      tool_call_id: call.id,
      tool_name: call.name,
      tool_call_index: index,
      session_key: options.session?.key,
      session_source: options.session?.source,
      arguments_error: call.argumentsError === undefined ? undefined : true,
    },
    options.parentSpan,
  );
  // Raw arguments go to the tracer, which keeps hashes only unless replay mode is on.
  span.recordPayload('tool_arguments', call.arguments);
  return span;
}

/**
 * Close the span with the outcome. A suspension is not a failure of the call, so it ends `ok`
 * with an instant `approval.pause` child that names the approval to resume.
 */
function endToolSpan(
  span: SpanHandle,
  call: ToolCall,
  output: ToolOutput,
  result: ToolExecutionResult,
  latencyMs: number,
  options: ExecuteBatchOptions,
): void {
  const metadata = output.metadata ?? {};
  const errorType = typeof metadata.error_type === 'string' ? metadata.error_type : undefined;
  span.recordPayload('tool_observation', output.content);
  span.setAttributes({
    is_error: output.isError,
    denied: result.status === 'denied',
    suspended: result.status === 'suspended',
    doom_loop_detected: metadata.doom_loop_detected === true,
    error_type: errorType,
    retryable: typeof metadata.retryable === 'boolean' ? metadata.retryable : undefined,
    suggested_tool:
      typeof metadata.suggested_tool === 'string' ? metadata.suggested_tool : undefined,
    attempt: typeof metadata.attempt === 'number' ? metadata.attempt : undefined,
    latency_ms: latencyMs,
    result_chars: output.content.length,
  });
  if (result.status === 'suspended') {
    span.setAttributes({ approval_id: result.approvalId, checkpoint_id: result.checkpointId });
    options.tracer
      .startSpan(
        'approval.pause',
        `approval.pause.${call.name}`,
        {
          approval_id: result.approvalId,
          checkpoint_id: result.checkpointId,
          tool_call_id: call.id,
          tool_name: call.name,
          reason: errorType ?? 'approval_required',
        },
        span,
      )
      .end('ok');
  }
  span.end(output.isError && result.status !== 'suspended' ? 'error' : 'ok');
}

function observation(
  call: ToolCall,
  index: number,
  output: ToolOutput,
  result: ToolExecutionResult,
): Message {
  const metadata: ToolMetadata = {
    ...output.metadata,
    is_error: output.isError,
    tool_call_index: index,
  };
  if (result.status === 'denied') metadata.denied = true;
  return msg.tool(call, output.content, metadata);
}

function cancelledObservation(call: ToolCall): Message {
  return msg.tool(call, executorText.cancelled, { is_error: true, error_type: 'cancelled' });
}
