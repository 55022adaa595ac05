import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingLogger, tempStateDir } from '../__fixtures__/scripted-run.js';
import { createSpanTracer } from '../create-tracer.js';
import type { TraceRecorder } from '../recorder/trace-recorder.js';
import type { TraceSpan, TraceTree } from '../trace-schema.js';
import type { SpanHandle } from './span-types.js';
import type { TreeTracer } from './tree-tracer.js';

let state: Awaited<ReturnType<typeof tempStateDir>>;
let trees: TraceTree[];
let tracer: TreeTracer;
const recorder: TraceRecorder = {
  record: async (tree) => {
    trees.push(tree);
    return { tracePath: `/memory/${tree.trace_id}` };
  },
};
const context = { sessionKey: 'cli-000000000000-t', runId: 'run1' };

beforeEach(async () => {
  state = await tempStateDir();
  trees = [];
  tracer = createSpanTracer({ stateDir: state.dir, mode: 'metadata', recorders: [recorder] });
});
afterEach(async () => {
  await state.cleanup();
});

const kinds = (span: TraceSpan | undefined) => span?.children.map((c) => `${c.kind}:${c.name}`);

describe('span parents', () => {
  it('nests a span under the explicit parent it names, even while a sibling is open', async () => {
    const run = tracer.startRun('main', {}, context);
    const step = tracer.startSpan('agent.step', 'step.1', {}, run);
    const other = tracer.startSpan('agent.step', 'step.other', {}, run);
    tracer.startSpan('tool.call', 'tool.read', {}, step).end();
    other.end();
    await tracer.finishRun(run, 'ok');
    expect(kinds(trees[0]?.root.children[0])).toEqual(['tool.call:tool.read']);
    expect(trees[0]?.root.children[1]?.children).toEqual([]);
  });

  it('orders tool spans by tool_call_index whatever order they started in', async () => {
    const run = tracer.startRun('main', {}, context);
    const step = tracer.startSpan('agent.step', 'step.1', {}, run);
    tracer.startSpan('llm.call', 'llm.x', {}, step).end();
    for (const index of [2, 0, 1]) {
      tracer.startSpan('tool.call', `tool.t${index}`, { tool_call_index: index }, step).end();
    }
    step.end();
    const resume = tracer.startSpan('agent.step', 'step.2', {}, run);
    tracer.startSpan('llm.call', 'llm.y', {}, resume).end();
    resume.end();
    await tracer.finishRun(run, 'ok');
    expect(kinds(trees[0]?.root.children[0])).toEqual([
      'llm.call:llm.x',
      'tool.call:tool.t0',
      'tool.call:tool.t1',
      'tool.call:tool.t2',
    ]);
    expect(kinds(trees[0]?.root)).toEqual(['agent.step:step.1', 'agent.step:step.2']);
  });

  it('does not record a span without a parent', async () => {
    const logger = recordingLogger();
    tracer = createSpanTracer({
      stateDir: state.dir,
      mode: 'metadata',
      recorders: [recorder],
      logger,
    });
    const run = tracer.startRun('main', {}, context);
    const orphan = tracer.startSpan('tool.call', 'tool.lost', {}, undefined);
    orphan.setAttributes({ x: 1 });
    orphan.end('ok');
    await tracer.finishRun(run, 'ok');
    expect(trees[0]?.root.children).toEqual([]);
    expect(logger.warnings).toEqual([]);
  });

  it("keeps one tracer's spans out of another tracer's tree", async () => {
    const other = createSpanTracer({
      stateDir: state.dir,
      mode: 'metadata',
      recorders: [recorder],
    });
    const run = tracer.startRun('main', {}, context);
    const foreign = other.startRun('main', {}, { ...context, runId: 'run2' });
    tracer.startSpan('agent.step', 'step.1', {}, foreign).end();
    await tracer.finishRun(run, 'ok');
    expect(await tracer.finishRun(foreign, 'ok')).toBeUndefined();
    expect(trees[0]?.root.children).toEqual([]);
  });
});

describe('finishing a run', () => {
  it('closes spans left open with the run status and marks them', async () => {
    const run = tracer.startRun('main', {}, context);
    const step = tracer.startSpan('agent.step', 'step.1', {}, run);
    tracer.startSpan('tool.call', 'tool.bash', { tool_call_index: 0 }, step);
    const where = await tracer.finishRun(run, 'cancelled');
    expect(where).toEqual({ traceId: 'run1', tracePath: '/memory/run1' });
    const root = trees[0]?.root as TraceSpan;
    expect(root.status).toBe('cancelled');
    const [openStep] = root.children;
    expect(openStep?.status).toBe('cancelled');
    expect(openStep?.attributes.closed_by_run_end).toBe(true);
    expect(openStep?.children[0]?.status).toBe('cancelled');
    expect(openStep?.children[0]?.ended_at).not.toBeNull();
  });

  it('keeps the status a span ended with; end is idempotent', async () => {
    const run = tracer.startRun('main', {}, context);
    const step = tracer.startSpan('agent.step', 'step.1', {}, run);
    step.end('error');
    step.end('ok');
    await tracer.finishRun(run, 'error');
    expect(trees[0]?.root.children[0]?.status).toBe('error');
    expect(trees[0]?.root.children[0]?.attributes.closed_by_run_end).toBeUndefined();
  });

  it('ignores spans, attributes and a second finish after the run is finished', async () => {
    const run = tracer.startRun('main', {}, context);
    const step = tracer.startSpan('agent.step', 'step.1', {}, run);
    await tracer.finishRun(run, 'ok');
    step.setAttributes({ late: true });
    step.addEvent('late');
    tracer.startSpan('llm.call', 'llm.late', {}, step).end();
    expect(await tracer.finishRun(run, 'ok')).toBeUndefined();
    expect(trees).toHaveLength(1);
    expect(trees[0]?.root.children[0]?.attributes.late).toBeUndefined();
  });

  it('uses the run id as trace id, or a random one when it is no safe file name', async () => {
    const bad = tracer.startRun('main', {}, { ...context, runId: '../../etc/passwd' });
    const where = await tracer.finishRun(bad, 'ok');
    expect(where?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(trees[0]?.root.attributes.run_id).toBe('../../etc/passwd');
  });

  it('records the session source and events', async () => {
    const run = tracer.startRun('main', {}, { ...context, sessionSource: 'feishu' });
    const step: SpanHandle = tracer.startSpan('agent.step', 'step.1', {}, run);
    step.addEvent('context.compacted', { original_chars: 10, compacted_chars: 5, note: undefined });
    step.end();
    await tracer.finishRun(run, 'ok');
    expect(trees[0]?.session).toEqual({ key: context.sessionKey, source: 'feishu' });
    expect(trees[0]?.root.children[0]?.events).toEqual([
      {
        timestamp: expect.any(String),
        name: 'context.compacted',
        attributes: { original_chars: 10, compacted_chars: 5 },
      },
    ]);
  });
});
