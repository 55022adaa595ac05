import { errorMessage } from '../errors.js';
import { type Message, msg, type ToolCall } from '../messages.js';
import { type Channel, notify } from '../observe/channel.js';
import type { Logger } from '../observe/logger.js';
import type { SpanHandle, Tracer } from '../observe/tracer.js';
import type { SessionRef } from '../session/session-ref.js';
import type { ToolExecutionResult, ToolOutput } from '../tool.js';
import type { ToolMetadata } from '../tool-metadata.js';
import type { ToolRegistry } from '../tool-registry.js';
import { runWithLimit } from './run-with-limit.js';
import { executorText } from './strings.js';

/** Everything one batch of tool calls needs. */
export interface ExecuteBatchOptions {
  registry: ToolRegistry;
  workdir: string;
  session?: SessionRef;
  runId?: string;
  signal: AbortSignal;
  visibleToolNames: readonly string[];
  /** Cap on concurrently running parallel-safe calls (≥ 1). */
  maxParallel: number;
  channel?: Channel;
  logger: Logger;
  tracer: Tracer;
  parentSpan?: SpanHandle;
  /** Extra metadata handed to middlewares with every call (e.g. the checkpoint draft). */
  metadata?: ToolMetadata;
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
  const groups = groupCalls(calls, options.registry);
  for (const [g, group] of groups.entries()) {
    if (options.signal.aborted) {
      for (const { call } of group) observations.push(cancelledObservation(call));
      continue;
    }
    const results = await runWithLimit(
      group,
      group.length > 1 ? options.maxParallel : 1,
      ({ call, index }) => runOne(call, index, options),
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
  return { observations, cancelled: options.signal.aborted };
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
): Promise<CallResult> {
  const { channel, logger } = options;
  if (options.signal.aborted) return { kind: 'answered', observation: cancelledObservation(call) };
  notify(channel, logger, 'onToolCall', { call, index });
  const span = options.tracer.startSpan(
    'tool.call',
    call.name,
    { 'tool.name': call.name, 'tool.call_id': call.id, tool_call_index: index },
    options.parentSpan,
  );
  const started = performance.now();
  let result: ToolExecutionResult;
  try {
    result = await options.registry.execute({
      call,
      workdir: options.workdir,
      signal: options.signal,
      visibleToolNames: options.visibleToolNames,
      metadata: { ...options.metadata, tool_call_index: index },
      ...(options.session ? { session: options.session } : {}),
      ...(options.runId ? { runId: options.runId } : {}),
    });
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
  const output = result.output;
  span.setAttributes({
    is_error: output.isError,
    denied: result.status === 'denied',
    suspended: result.status === 'suspended',
    latency_ms: Math.round(performance.now() - started),
  });
  span.end(output.isError && result.status !== 'suspended' ? 'error' : 'ok');
  notify(channel, logger, 'onToolResult', { call, index, output });
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
