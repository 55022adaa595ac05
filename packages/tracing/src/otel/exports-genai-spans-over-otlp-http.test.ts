import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type LoopbackOtlpReceiver,
  startLoopbackOtlpReceiver,
} from './__fixtures__/loopback-otlp-receiver.js';
import { type ReceivedSpan, spansOf } from './__fixtures__/otlp-json.js';
import { SAMPLE_TRACE_ID, sampleTrace } from './__fixtures__/sample-trace.js';
import { createOtelTraceRecorder, type OtelTraceRecorder } from './index.js';

const INTERNAL = 1;
const CLIENT = 3;
const STATUS_OK = 1;
const STATUS_ERROR = 2;

/** Exact nanoseconds since the epoch as OTLP JSON writes them (beyond a double's precision). */
function unixNanos(wholeSecondsIso: string, extraNanos: number): string {
  return (BigInt(Date.parse(wholeSecondsIso)) * 1_000_000n + BigInt(extraNanos)).toString();
}

describe('a finished trace is exported to an OTLP/HTTP collector as GenAI spans', () => {
  let receiver: LoopbackOtlpReceiver;
  let recorder: OtelTraceRecorder;
  let warnings: string[];
  let spans: ReceivedSpan[];

  const byName = (name: string): ReceivedSpan => {
    const span = spans.find((candidate) => candidate.name === name);
    if (!span) throw new Error(`no span ${name} in ${spans.map((s) => s.name).join(', ')}`);
    return span;
  };

  beforeEach(async () => {
    receiver = await startLoopbackOtlpReceiver();
    warnings = [];
    recorder = createOtelTraceRecorder({
      endpoint: `${receiver.endpoint}/`,
      headers: { 'x-collector-key': 'k-123' },
      logger: { warn: (message) => warnings.push(message) },
    });
    await recorder.record(sampleTrace());
    expect(receiver.received).toHaveLength(1);
    spans = spansOf(receiver.received[0]?.body);
  });

  afterEach(async () => {
    await recorder.shutdown();
    await receiver.close();
  });

  it('posts one JSON request to <endpoint>/v1/traces with the configured headers, before record resolves', () => {
    const request = receiver.received[0];
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/traces');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-collector-key']).toBe('k-123');
    expect(warnings).toEqual([]);
  });

  it('names spans by the GenAI conventions, one per span of the tree', () => {
    expect(spans.map((span) => span.name)).toEqual([
      'invoke_agent tiny-claw',
      'step 1',
      'chat claude-sonnet-4-20250514',
      'execute_tool read',
      'execute_tool bash',
    ]);
    expect(byName('chat claude-sonnet-4-20250514').kind).toBe(CLIENT);
    for (const name of ['invoke_agent tiny-claw', 'step 1', 'execute_tool read']) {
      expect(byName(name).kind).toBe(INTERNAL);
    }
  });

  it('keeps the trace id and the parent links of the tree', () => {
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([SAMPLE_TRACE_ID]));
    const run = byName('invoke_agent tiny-claw');
    const step = byName('step 1');
    expect(run.spanId).toBe('00f067aa0ba902b7');
    expect(run.parentSpanId).toBeUndefined();
    expect(step.parentSpanId).toBe(run.spanId);
    for (const child of [
      'chat claude-sonnet-4-20250514',
      'execute_tool read',
      'execute_tool bash',
    ]) {
      expect(byName(child).parentSpanId).toBe(step.spanId);
    }
  });

  it('keeps the original start and end times, to the microsecond', () => {
    const run = byName('invoke_agent tiny-claw');
    expect(run.startTimeUnixNano).toBe(unixNanos('2025-03-04T05:06:07Z', 100_000_000));
    expect(run.endTimeUnixNano).toBe(unixNanos('2025-03-04T05:06:09Z', 900_500_000));
    const chat = byName('chat claude-sonnet-4-20250514');
    expect(chat.startTimeUnixNano).toBe(unixNanos('2025-03-04T05:06:07Z', 300_123_000));
    expect(chat.endTimeUnixNano).toBe(unixNanos('2025-03-04T05:06:08Z', 456_789_000));
  });

  it('marks the agent run with invoke_agent attributes and the session as conversation id', () => {
    const run = byName('invoke_agent tiny-claw');
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'tiny-claw',
      'gen_ai.conversation.id': 'cli-1a2b3c4d5e6f-default',
      'tiny_claw.mode': 'act',
      'tiny_claw.stop_reason': 'final_answer',
      'tiny_claw.capture_mode': 'metadata',
      'tiny_claw.session.source': 'cli',
      'tiny_claw.span.name': 'tiny_claw.run',
    });
    expect(run.status.code).toBe(STATUS_OK);
    expect(run.resource['service.name']).toBe('tiny-claw');
    expect(run.scope).toBe('@tiny-claw/tracing');
  });

  it('gives the model call provider, models and token usage attributes', () => {
    const chat = byName('chat claude-sonnet-4-20250514');
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-sonnet-4-20250514',
      'gen_ai.response.model': 'claude-sonnet-4-20250514',
      'gen_ai.usage.input_tokens': 829,
      'gen_ai.usage.output_tokens': 119,
      'gen_ai.usage.cache_read.input_tokens': 512,
      'tiny_claw.total_tokens': 948,
      'tiny_claw.latency_ms': 1157,
    });
    expect(chat.attributes).not.toHaveProperty('tiny_claw.input_tokens');
    expect(chat.attributes).not.toHaveProperty('tiny_claw.provider');
  });

  it('gives tool calls their tool name and call id, and a failed one ERROR status with error.type', () => {
    const read = byName('execute_tool read');
    expect(read.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'read',
      'gen_ai.tool.call.id': 'call_read_1',
      'tiny_claw.tool_call_index': 0,
      'tiny_claw.tool_arguments_keys': ['path'],
    });
    expect(read.attributes).not.toHaveProperty('error.type');
    expect(read.status.code).toBe(STATUS_OK);

    const bash = byName('execute_tool bash');
    expect(bash.status).toMatchObject({ code: STATUS_ERROR, message: 'timeout' });
    expect(bash.attributes).toMatchObject({
      'gen_ai.tool.name': 'bash',
      'gen_ai.tool.call.id': 'call_bash_2',
      'error.type': 'timeout',
      'tiny_claw.is_error': true,
      'tiny_claw.status': 'error',
    });
    // null attributes have no OTel form and are dropped rather than sent as "null".
    expect(bash.attributes).not.toHaveProperty('tiny_claw.retryable');
  });

  it('carries span events with their own times and attributes', () => {
    const step = byName('step 1');
    expect(step.events).toEqual([
      {
        name: 'context.compacted',
        timeUnixNano: unixNanos('2025-03-04T05:06:07.250Z', 0),
        attributes: { original_chars: 9000, compacted_chars: 4000, still_over_budget: false },
      },
    ]);
  });
});
