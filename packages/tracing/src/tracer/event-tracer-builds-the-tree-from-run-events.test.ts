import type { RunEvent, RunResult, SessionRef } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempStateDir } from '../__fixtures__/scripted-run.js';
import { createTracer } from '../create-tracer.js';
import type { TraceSpan, TraceTree } from '../trace-schema.js';

let state: Awaited<ReturnType<typeof tempStateDir>>;
let trees: TraceTree[];
beforeEach(async () => {
  state = await tempStateDir();
  trees = [];
});
afterEach(() => state.cleanup());

const session: SessionRef = {
  key: 'cli-000000000000-default',
  source: 'cli',
  externalId: 'default',
  displayName: 'default',
  workdir: '/repo',
};
const call = (id: string, name: string) => ({ id, name, arguments: {} });
const output = { content: 'ok', isError: false };

function tracer() {
  return createTracer({
    stateDir: state.dir,
    mode: 'metadata',
    recorders: [{ record: async (tree) => void trees.push(tree) }],
  });
}

function result(runId: string, fields: Partial<RunResult> = {}): RunResult {
  return {
    runId,
    sessionKey: session.key,
    workdir: session.workdir,
    text: 'done',
    stopReason: 'final',
    steps: 1,
    maxSteps: 5,
    mode: 'act',
    provider: 'scripted',
    model: null,
    usage: null,
    ...fields,
  };
}

const start = (
  runId: string,
  extra: Partial<Extract<RunEvent, { type: 'run.start' }>> = {},
): RunEvent => ({
  type: 'run.start',
  runId,
  session,
  mode: 'act',
  maxSteps: 5,
  provider: 'scripted',
  model: null,
  prompt: 'p',
  caller: 'main_loop',
  ...extra,
});
const step = (runId: string, n: number): RunEvent => ({
  type: 'step.start',
  runId,
  step: n,
  maxSteps: 5,
  phase: 'act',
  toolChoice: 'auto',
  tools: ['explore'],
  messageCount: 2,
});

const shape = (span: TraceSpan): unknown => ({
  [`${span.kind} ${span.name}`]: span.children.map(shape),
});

describe('the event tracer', () => {
  it('nests a run started inside a tool call as subagent.run under that tool.call', async () => {
    const t = tracer();
    const events: RunEvent[] = [
      start('parent'),
      step('parent', 1),
      { type: 'tool.start', runId: 'parent', step: 1, call: call('c1', 'explore'), index: 0 },
      start('child', { caller: 'subagent', parent: { runId: 'parent', toolCallId: 'c1' } }),
      step('child', 1),
      { type: 'tool.start', runId: 'child', step: 1, call: call('k1', 'read'), index: 0 },
      {
        type: 'tool.end',
        runId: 'child',
        step: 1,
        call: call('k1', 'read'),
        index: 0,
        status: 'completed',
        output,
        observation: output,
        latencyMs: 1,
        blocked: false,
      },
    ];
    for (const event of events) t.onEvent(event);
    expect(await t.finishRun('child', { result: result('child') })).toBeUndefined();
    t.onEvent({
      type: 'tool.end',
      runId: 'parent',
      step: 1,
      call: call('c1', 'explore'),
      index: 0,
      status: 'completed',
      output,
      observation: output,
      latencyMs: 5,
      blocked: false,
    });
    const where = await t.finishRun('parent', { result: result('parent') });
    expect(where?.traceId).toBeDefined();
    expect(trees).toHaveLength(1);
    expect(shape(trees[0]?.root as TraceSpan)).toEqual({
      'agent.run main': [
        {
          'agent.step step.1': [
            {
              'tool.call tool.explore': [
                {
                  'subagent.run subagent.run': [
                    { 'agent.step step.1': [{ 'tool.call tool.read': [] }] },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it.each([
    ['in the order they started', [0, 1]],
    ['the second first', [1, 0]],
  ])(
    'keeps both results of two calls with the same id, each on its own span, when they end %s',
    async (_order, endOrder) => {
      const t = tracer();
      const calls = [
        { ...call('dup', 'read'), arguments: { path: 'a.txt' } },
        { ...call('dup', 'read'), arguments: { path: 'missing.txt' } },
      ];
      const outputs = [
        { content: 'alpha', isError: false },
        { content: 'read path does not exist: missing.txt', isError: true },
      ];
      t.onEvent(start('r'));
      t.onEvent(step('r', 1));
      for (const [index, c] of calls.entries()) {
        t.onEvent({ type: 'tool.start', runId: 'r', step: 1, call: c, index });
      }
      for (const index of endOrder) {
        t.onEvent({
          type: 'tool.end',
          runId: 'r',
          step: 1,
          call: calls[index] as (typeof calls)[number],
          index,
          status: 'completed',
          output: outputs[index] as (typeof outputs)[number],
          observation: outputs[index] as (typeof outputs)[number],
          latencyMs: 1,
          blocked: false,
        });
      }
      await t.finishRun('r', { result: result('r') });
      const tools = trees[0]?.root.children[0]?.children ?? [];
      expect(
        tools.map((span) => [
          span.attributes.tool_call_id,
          span.attributes.tool_call_index,
          span.status,
          span.attributes.result_chars,
        ]),
      ).toEqual([
        ['dup', 0, 'ok', 5],
        ['dup', 1, 'error', outputs[1]?.content.length],
      ]);
    },
  );

  it('hangs an approval.pause under the paused tool.call and ends the call ok', async () => {
    const t = tracer();
    const suspended = { content: 'needs approval', isError: true };
    for (const event of [
      start('r'),
      step('r', 1),
      { type: 'tool.start', runId: 'r', step: 1, call: call('c1', 'write'), index: 0 },
      {
        type: 'tool.end',
        runId: 'r',
        step: 1,
        call: call('c1', 'write'),
        index: 0,
        status: 'suspended',
        output: suspended,
        observation: suspended,
        latencyMs: 1,
        blocked: false,
      },
      {
        type: 'approval.required',
        runId: 'r',
        step: 1,
        call: call('c1', 'write'),
        index: 0,
        approvalId: 'ap1',
        checkpointId: 'cp1',
        summary: 'needs approval',
      },
    ] satisfies RunEvent[]) {
      t.onEvent(event);
    }
    await t.finishRun('r', {
      result: result('r', { stopReason: 'approval_required', approvalId: 'ap1' }),
    });
    const tool = trees[0]?.root.children[0]?.children[0];
    expect(tool).toMatchObject({
      status: 'ok',
      attributes: { suspended: true, approval_id: 'ap1' },
    });
    expect(tool?.children[0]).toMatchObject({
      kind: 'approval.pause',
      attributes: { approval_id: 'ap1', checkpoint_id: 'cp1' },
    });
    expect(trees[0]?.root).toMatchObject({
      status: 'ok',
      attributes: { stop_reason: 'approval_required' },
    });
  });

  it('roots a resumed run at approval_resume with an approval.resume span holding the decision and the answered call', async () => {
    const t = tracer();
    t.onEvent(start('resumed', { caller: 'approval_resume' }));
    t.onEvent({
      type: 'approval.resumed',
      runId: 'resumed',
      approvalId: 'ap_1',
      checkpointId: 'cp_1',
      decision: 'approve',
      actor: 'cli:alice',
      waitMs: 1234,
      call: call('c1', 'write'),
    });
    t.onEvent({
      type: 'tool.start',
      runId: 'resumed',
      step: 1,
      call: call('c1', 'write'),
      index: 0,
    });
    t.onEvent({
      type: 'tool.end',
      runId: 'resumed',
      step: 1,
      call: call('c1', 'write'),
      index: 0,
      status: 'completed',
      output,
      observation: output,
      latencyMs: 2,
      blocked: false,
    });
    t.onEvent(step('resumed', 2));
    await t.finishRun('resumed', { result: result('resumed', { steps: 2 }) });
    const root = trees[0]?.root as TraceSpan;
    expect(root).toMatchObject({ kind: 'agent.run', name: 'approval_resume' });
    expect(shape(root)).toEqual({
      'agent.run approval_resume': [
        { 'approval.resume approval.resume.write': [{ 'tool.call tool.write': [] }] },
        { 'agent.step step.2': [] },
      ],
    });
    expect(root.children[0]?.attributes).toMatchObject({
      decision: 'approve',
      actor: 'cli:alice',
      wait_ms: 1234,
      approval_id: 'ap_1',
    });
  });

  it('names the failed model call on the root of a provider failure, and the error of a crashed run', async () => {
    const t = tracer();
    t.onEvent(start('r'));
    t.onEvent(step('r', 1));
    t.onEvent({
      type: 'model.start',
      runId: 'r',
      step: 1,
      attempt: 1,
      provider: 'scripted',
      messages: [],
      tools: [],
      toolChoice: 'auto',
    });
    t.onEvent({
      type: 'model.error',
      runId: 'r',
      step: 1,
      attempt: 1,
      provider: 'scripted',
      errorType: 'rate_limit',
      message: 'slow down',
      cancelled: false,
      latencyMs: 3,
    });
    await t.finishRun('r', { result: result('r', { stopReason: 'provider_error' }) });
    expect(trees[0]?.root).toMatchObject({
      status: 'error',
      attributes: { error_type: 'rate_limit' },
    });
    expect(trees[0]?.root.children[0]?.children[0]).toMatchObject({
      kind: 'llm.call',
      status: 'error',
    });

    t.onEvent(start('crash'));
    await t.finishRun('crash', { error: new RangeError('boom') });
    expect(trees[1]?.root).toMatchObject({
      status: 'error',
      attributes: { error_type: 'RangeError' },
    });
  });

  it('ignores events of runs it never saw start and a second finish', async () => {
    const t = tracer();
    t.onEvent(step('ghost', 1));
    expect(await t.finishRun('ghost', { result: result('ghost') })).toBeUndefined();
    t.onEvent(start('r'));
    await t.finishRun('r', { result: result('r') });
    expect(await t.finishRun('r', { result: result('r') })).toBeUndefined();
    expect(trees).toHaveLength(1);
  });

  it('notes a compacted request on its step, with characters and estimated tokens', async () => {
    const t = tracer();
    t.onEvent(start('r'));
    t.onEvent(step('r', 1));
    t.onEvent({
      type: 'model.start',
      runId: 'r',
      step: 1,
      attempt: 1,
      provider: 'scripted',
      messages: [],
      tools: [],
      toolChoice: 'auto',
      compaction: {
        level: 'normal',
        changed: true,
        originalChars: 40_000,
        compactedChars: 900,
        maxChars: 60_000,
        originalTokens: 31_000,
        compactedTokens: 700,
        maxTokens: 15_000,
        tokenScale: 1.25,
        maskedToolResults: 3,
        truncatedToolResults: 0,
        protectedToolResults: 1,
        overBudget: false,
      },
    });
    await t.finishRun('r', { result: result('r') });
    const stepSpan = trees[0]?.root.children[0];
    expect(stepSpan?.events).toEqual([
      {
        timestamp: expect.any(String),
        name: 'context.compacted',
        attributes: {
          level: 'normal',
          original_chars: 40_000,
          compacted_chars: 900,
          max_chars: 60_000,
          original_tokens: 31_000,
          compacted_tokens: 700,
          max_tokens: 15_000,
          token_scale: 1.25,
          masked_tool_results: 3,
          truncated_tool_results: 0,
          still_over_budget: false,
        },
      },
    ]);
  });
});
