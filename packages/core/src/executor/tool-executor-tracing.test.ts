import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolCall } from '../messages.js';
import { nullLogger } from '../observe/logger.js';
import type {
  SpanAttributes,
  SpanHandle,
  SpanKind,
  SpanStatus,
  TracePayloadName,
  Tracer,
} from '../observe/tracer.js';
import { testSession } from '../testing/fakes.js';
import { defineTool, type ToolOutput } from '../tool.js';
import { ToolRegistry } from '../tool-registry.js';
import { type ExecuteBatchOptions, executeBatch } from './tool-executor.js';

interface RecordedSpan {
  kind: SpanKind;
  name: string;
  parent: SpanHandle | undefined;
  attributes: SpanAttributes;
  payloads: Partial<Record<TracePayloadName, unknown>>;
  status?: SpanStatus;
  handle: SpanHandle;
}

/** Keeps every span in memory; `withSpan` really sets the current span, like the real tracer. */
class RecordingTracer implements Tracer {
  readonly spans: RecordedSpan[] = [];
  readonly #current = new AsyncLocalStorage<SpanHandle>();
  startRun(): SpanHandle {
    throw new Error('not used');
  }
  startSpan(kind: SpanKind, name: string, attributes: SpanAttributes, parent?: SpanHandle) {
    const span = {
      kind,
      name,
      parent,
      attributes: { ...attributes },
      payloads: {},
    } as RecordedSpan;
    span.handle = {
      spanId: `s${this.spans.length + 1}`,
      traceId: 't',
      setAttributes: (more) => Object.assign(span.attributes, more),
      addEvent: () => {},
      recordPayload: (payload, value) => {
        span.payloads[payload] = value;
      },
      end: (status) => {
        span.status ??= status;
      },
    };
    this.spans.push(span);
    return span.handle;
  }
  withSpan<T>(span: SpanHandle, fn: () => T): T {
    return this.#current.run(span, fn);
  }
  currentSpan(): SpanHandle | undefined {
    return this.#current.getStore();
  }
  async finishRun() {
    return undefined;
  }
}

const stepSpan: SpanHandle = {
  spanId: 'step',
  traceId: 't',
  setAttributes() {},
  addEvent() {},
  recordPayload() {},
  end() {},
};

function options(registry: ToolRegistry, tracer: Tracer): ExecuteBatchOptions {
  return {
    registry,
    workdir: '/tmp',
    session: testSession('/tmp'),
    signal: new AbortController().signal,
    visibleTools: registry.names(),
    maxParallel: 4,
    logger: nullLogger,
    tracer,
    parentSpan: stepSpan,
  };
}

function answering(
  name: string,
  output: ToolOutput,
  seen?: (tracer: Tracer) => void,
  parallelSafe = true,
) {
  let tracer: Tracer | undefined;
  const tool = defineTool({
    name,
    description: name,
    parallelSafe,
    parameters: z.object({ path: z.string().optional() }),
    run: async () => {
      if (tracer) seen?.(tracer);
      return output;
    },
  });
  return Object.assign(tool, {
    bind(t: Tracer) {
      tracer = t;
    },
  });
}

const call = (id: string, name: string, path = 'secret-path.txt'): ToolCall => ({
  id,
  name,
  arguments: { path },
});

describe('tool.call spans', () => {
  it('open under the step with the call identity and hand arguments and observation to the tracer', async () => {
    const tracer = new RecordingTracer();
    const read = answering('read', { content: 'file text', isError: false });
    const registry = new ToolRegistry().register(read);
    await executeBatch(
      [call('c1', 'read'), call('c2', 'read', 'b.txt')],
      options(registry, tracer),
    );
    const [first, second] = tracer.spans;
    expect(first).toMatchObject({
      kind: 'tool.call',
      name: 'tool.read',
      parent: stepSpan,
      status: 'ok',
      payloads: { tool_arguments: { path: 'secret-path.txt' }, tool_observation: 'file text' },
    });
    expect(first?.attributes).toMatchObject({
      tool_call_id: 'c1',
      tool_name: 'read',
      tool_call_index: 0,
      session_key: 'cli-000000000000-default',
      session_source: 'cli',
      is_error: false,
      denied: false,
      suspended: false,
      doom_loop_detected: false,
      result_chars: 9,
    });
    expect(first?.attributes.latency_ms).toBeTypeOf('number');
    expect(second?.attributes.tool_call_index).toBe(1);
    // Content only ever travels as a payload; attributes hold no argument or output text.
    expect(JSON.stringify(tracer.spans.map((s) => s.attributes))).not.toMatch(
      /secret-path|file text/,
    );
  });

  it('run the tool inside its span, so spans the tool starts nest under it', async () => {
    const tracer = new RecordingTracer();
    let current: SpanHandle | undefined;
    const explore = answering('explore', { content: 'found', isError: false }, (t) => {
      current = t.currentSpan();
    });
    explore.bind(tracer);
    await executeBatch(
      [call('c1', 'explore')],
      options(new ToolRegistry().register(explore), tracer),
    );
    expect(current).toBe(tracer.spans[0]?.handle);
  });

  it('mark a failed call is_error with its error type and end as error', async () => {
    const tracer = new RecordingTracer();
    const edit = answering('edit', {
      content: 'old_text not found',
      isError: true,
      metadata: { error_type: 'edit_old_text_not_found' },
    });
    await executeBatch([call('c1', 'edit')], options(new ToolRegistry().register(edit), tracer));
    expect(tracer.spans[0]?.status).toBe('error');
    expect(tracer.spans[0]?.attributes).toMatchObject({
      is_error: true,
      error_type: 'edit_old_text_not_found',
      retryable: expect.any(Boolean),
      attempt: 1,
    });
  });

  it('mark a denied call denied', async () => {
    const tracer = new RecordingTracer();
    const registry = new ToolRegistry()
      .register(answering('bash', { content: 'ran', isError: false }))
      .use(async () => ({
        status: 'denied',
        reason: 'denylist',
        output: {
          content: 'denied',
          isError: true,
          metadata: { error_type: 'tool_policy_denied' },
        },
      }));
    await executeBatch([call('c1', 'bash')], options(registry, tracer));
    expect(tracer.spans[0]?.status).toBe('error');
    expect(tracer.spans[0]?.attributes).toMatchObject({
      is_error: true,
      denied: true,
      error_type: 'tool_policy_denied',
    });
  });

  it('mark a suspended call and give it an approval.pause child naming the approval', async () => {
    const tracer = new RecordingTracer();
    const registry = new ToolRegistry()
      .register(answering('bash', { content: 'ran', isError: false }))
      .use(async () => ({
        status: 'suspended',
        approvalId: 'ap1',
        checkpointId: 'cp1',
        output: { content: 'wait', isError: true, metadata: { error_type: 'approval_required' } },
      }));
    await executeBatch([call('c1', 'bash')], options(registry, tracer));
    const [tool, pause] = tracer.spans;
    expect(tool?.status).toBe('ok');
    expect(tool?.attributes).toMatchObject({
      suspended: true,
      approval_id: 'ap1',
      checkpoint_id: 'cp1',
    });
    expect(pause).toMatchObject({
      kind: 'approval.pause',
      parent: tool?.handle,
      status: 'ok',
      attributes: {
        approval_id: 'ap1',
        checkpoint_id: 'cp1',
        tool_call_id: 'c1',
        tool_name: 'bash',
        reason: 'approval_required',
      },
    });
  });

  it('mark the blocked repeat of a failing call doom_loop_detected', async () => {
    const tracer = new RecordingTracer();
    const edit = answering(
      'edit',
      {
        content: 'old_text not found',
        isError: true,
        metadata: { error_type: 'edit_old_text_not_found' },
      },
      undefined,
      false,
    );
    const calls = ['1', '2', '3'].map((id) => call(id, 'edit'));
    await executeBatch(calls, options(new ToolRegistry().register(edit), tracer));
    const blocked = tracer.spans[2];
    expect(blocked?.status).toBe('error');
    expect(blocked?.payloads.tool_arguments).toEqual({ path: 'secret-path.txt' });
    expect(blocked?.attributes).toMatchObject({
      tool_call_index: 2,
      is_error: true,
      blocked: true,
      doom_loop_detected: true,
      error_type: 'repeat_call_blocked',
      attempt: 3,
    });
  });
});
