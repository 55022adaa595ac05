import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALPHA_PATH, BETA_PATH, scriptedRun, tempStateDir } from './__fixtures__/scripted-run.js';
import { createTracer } from './create-tracer.js';
import { readTrace } from './recorder/trace-reader.js';
import type { TraceSpan } from './trace-schema.js';

let state: Awaited<ReturnType<typeof tempStateDir>>;
beforeEach(async () => {
  state = await tempStateDir();
});
afterEach(async () => {
  await state.cleanup();
});

/** `kind(child kind, …)` per level, e.g. `agent.step(llm.call,tool.call)`. */
function shape(span: TraceSpan): string {
  return span.children.length === 0
    ? span.kind
    : `${span.kind}(${span.children.map(shape).join(',')})`;
}

describe('a scripted run with two parallel reads, a write and a final answer', () => {
  it('produces one trace file whose tree is run > steps > llm/tool calls in the model order', async () => {
    const tracer = createTracer({ stateDir: state.dir, mode: 'metadata' });
    const result = await scriptedRun(tracer, { stateDir: state.dir });
    expect(result.stopReason).toBe('final');
    expect(result.traceId).toBe(result.runId);
    expect(result.tracePath).toBe(
      join(state.dir, 'sessions', result.sessionKey, 'traces', `${result.traceId}.json`),
    );

    const tree = await readTrace(result.tracePath as string);
    expect(tree).toMatchObject({
      schema_version: 1,
      trace_id: result.runId,
      session: { key: result.sessionKey },
      capture_mode: 'metadata',
    });
    expect(shape(tree.root)).toBe(
      'agent.run(agent.step(llm.call,tool.call,tool.call),agent.step(llm.call,tool.call),agent.step(llm.call))',
    );

    const [first, second] = tree.root.children;
    const reads = first?.children.filter((span) => span.kind === 'tool.call') ?? [];
    // The first read finished last, yet it comes first: children follow the model's order.
    expect(reads.map((span) => span.attributes.tool_call_index)).toEqual([0, 1]);
    expect(reads.map((span) => span.attributes.tool_call_id)).toEqual(['call_1_1', 'call_1_2']);
    const [alphaEnd, betaEnd] = reads.map((span) => Date.parse(span.ended_at ?? ''));
    expect(alphaEnd).toBeGreaterThanOrEqual(betaEnd ?? 0);
    expect(reads[0]?.name).toBe('tool.read');
    expect(second?.children[1]?.name).toBe('tool.write');
  });

  it('links every span to its parent and closes every span', async () => {
    const tracer = createTracer({ stateDir: state.dir, mode: 'metadata' });
    const result = await scriptedRun(tracer, { stateDir: state.dir });
    const tree = await readTrace(result.tracePath as string);
    const visit = (span: TraceSpan, parentId: string | null): void => {
      expect(span.parent_id).toBe(parentId);
      expect(span.span_id).toMatch(/^[0-9a-f]{16}$/);
      expect(span.ended_at).not.toBeNull();
      expect(span.status).toBe('ok');
      for (const child of span.children) visit(child, span.span_id);
    };
    visit(tree.root, null);
  });

  it('records tool outcomes, token counts and payload metadata on the spans', async () => {
    const tracer = createTracer({ stateDir: state.dir, mode: 'metadata' });
    const result = await scriptedRun(tracer, { stateDir: state.dir });
    const tree = await readTrace(result.tracePath as string);
    const step = tree.root.children[0];
    expect(step?.children[0]?.attributes).toMatchObject({
      provider: 'scripted',
      model: 'scripted',
      input_tokens: 100,
      output_tokens: 10,
      tool_calls: 2,
    });
    expect(step?.children[1]?.attributes).toMatchObject({
      tool_name: 'read',
      tool_call_index: 0,
      is_error: false,
      denied: false,
      suspended: false,
      doom_loop_detected: false,
      tool_arguments_keys: ['path'],
      tool_arguments_chars: JSON.stringify({ path: ALPHA_PATH }).length,
      tool_observation_chars: 'alpha says hello'.length,
    });
    expect(step?.children[1]?.attributes.latency_ms).toBeTypeOf('number');
    expect(step?.children[1]?.attributes.tool_arguments_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(step?.children[2]?.attributes.tool_arguments_chars).toBe(
      JSON.stringify({ path: BETA_PATH }).length,
    );
  });

  it('writes the file 0600 inside 0700 directories', async () => {
    const tracer = createTracer({ stateDir: state.dir, mode: 'metadata' });
    const result = await scriptedRun(tracer, { stateDir: state.dir });
    const path = result.tracePath as string;
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(path, '..'))).mode & 0o777).toBe(0o700);
  });
});
