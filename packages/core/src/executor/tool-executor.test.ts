import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolCall } from '../messages.js';
import { nullLogger } from '../observe/logger.js';
import { nullTracer } from '../observe/tracer.js';
import { slowTool } from '../testing/fakes.js';
import { defineTool } from '../tool.js';
import { ToolRegistry } from '../tool-registry.js';
import { type ExecuteBatchOptions, executeBatch } from './tool-executor.js';

function options(
  registry: ToolRegistry,
  extra: Partial<ExecuteBatchOptions> = {},
): ExecuteBatchOptions {
  return {
    registry,
    workdir: '/tmp',
    signal: new AbortController().signal,
    visibleToolNames: registry.names(),
    maxParallel: 4,
    logger: nullLogger,
    tracer: nullTracer,
    ...extra,
  };
}

const call = (id: string, name: string, label = id): ToolCall => ({
  id,
  name,
  arguments: { label },
});

describe('executeBatch', () => {
  it('runs consecutive parallel-safe calls concurrently and keeps the model order', async () => {
    const reader = slowTool('slow_read', { delayMs: 60, parallelSafe: true });
    const registry = new ToolRegistry().register(reader);
    const calls = ['a', 'b', 'c', 'd'].map((id) => call(id, 'slow_read'));
    const outcome = await executeBatch(calls, options(registry));
    expect(outcome.observations.map((m) => m.toolCallId)).toEqual(['a', 'b', 'c', 'd']);
    expect(outcome.observations.map((m) => m.metadata?.tool_call_index)).toEqual([0, 1, 2, 3]);
    const latestStart = Math.max(...reader.spans.map((s) => s.start));
    const earliestEnd = Math.min(...reader.spans.map((s) => s.end));
    expect(latestStart).toBeLessThan(earliestEnd);
  });

  it('never runs more parallel calls at once than the cap', async () => {
    const reader = slowTool('slow_read', { delayMs: 30, parallelSafe: true });
    const registry = new ToolRegistry().register(reader);
    const calls = ['a', 'b', 'c', 'd', 'e'].map((id) => call(id, 'slow_read'));
    await executeBatch(calls, options(registry, { maxParallel: 2 }));
    const events = reader.spans.flatMap((s) => [
      { t: s.start, d: 1 },
      { t: s.end, d: -1 },
    ]);
    events.sort((x, y) => x.t - y.t || x.d - y.d);
    let running = 0;
    let peak = 0;
    for (const e of events) {
      running += e.d;
      peak = Math.max(peak, running);
    }
    expect(peak).toBe(2);
  });

  it('runs a non-parallel call as a barrier after the calls before it finish', async () => {
    const reader = slowTool('slow_read', { delayMs: 40, parallelSafe: true });
    const writer = slowTool('slow_write', { delayMs: 5, parallelSafe: false });
    const registry = new ToolRegistry().register(reader).register(writer);
    const calls = [call('r1', 'slow_read'), call('w', 'slow_write'), call('r2', 'slow_read')];
    const outcome = await executeBatch(calls, options(registry));
    expect(outcome.observations.map((m) => m.toolCallId)).toEqual(['r1', 'w', 'r2']);
    const w = writer.spans[0];
    const [r1, r2] = reader.spans;
    expect(w?.start).toBeGreaterThanOrEqual(r1?.end ?? Number.POSITIVE_INFINITY);
    expect(r2?.start).toBeGreaterThanOrEqual(w?.end ?? Number.POSITIVE_INFINITY);
  });

  it('turns a tool that throws into an error observation and keeps going', async () => {
    const boom = defineTool({
      name: 'boom',
      description: '',
      parallelSafe: true,
      schema: z.object({ label: z.string() }),
      run: async () => {
        throw new Error('kaput');
      },
    });
    const registry = new ToolRegistry()
      .register(boom)
      .register(slowTool('ok', { delayMs: 1, parallelSafe: true }));
    const outcome = await executeBatch([call('1', 'boom'), call('2', 'ok')], options(registry));
    expect(outcome.observations[0]).toMatchObject({
      role: 'tool',
      toolCallId: '1',
      content: 'tool boom failed unexpectedly: kaput',
      metadata: { is_error: true, error_type: 'execution_error' },
    });
    expect(outcome.observations[1]).toMatchObject({
      toolCallId: '2',
      metadata: { is_error: false },
    });
  });

  it('gives every call a cancelled observation when the signal fires', async () => {
    const controller = new AbortController();
    const writer = slowTool('slow_write', { delayMs: 20, parallelSafe: false });
    const registry = new ToolRegistry().register(writer);
    const run = executeBatch(
      [call('1', 'slow_write'), call('2', 'slow_write'), call('3', 'slow_write')],
      options(registry, { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 5);
    const outcome = await run;
    expect(outcome.cancelled).toBe(true);
    expect(outcome.observations.map((m) => m.toolCallId)).toEqual(['1', '2', '3']);
    expect(outcome.observations.slice(1).every((m) => m.metadata?.error_type === 'cancelled')).toBe(
      true,
    );
    expect(writer.spans).toHaveLength(1);
  });

  it('stops at a suspended call and lists every call still without an answer', async () => {
    const registry = new ToolRegistry()
      .register(slowTool('slow_write', { delayMs: 1, parallelSafe: false }))
      .use(async (c, next) =>
        c.call.id === '2'
          ? {
              status: 'suspended',
              approvalId: 'ap',
              checkpointId: 'cp',
              output: { content: 'wait', isError: true },
            }
          : next(c),
      );
    const calls = [call('1', 'slow_write'), call('2', 'slow_write'), call('3', 'slow_write')];
    const outcome = await executeBatch(calls, options(registry));
    expect(outcome.observations.map((m) => m.toolCallId)).toEqual(['1']);
    expect(outcome.suspended).toMatchObject({ index: 1, approvalId: 'ap', content: 'wait' });
    expect(outcome.suspended?.pending.map((c) => c.id)).toEqual(['2', '3']);
  });
});
