import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolCall } from '../messages.js';
import { EventBus } from '../observe/event-bus.js';
import { nullLogger } from '../observe/logger.js';
import type { RunEvent } from '../observe/run-events.js';
import { defineTool, type ToolFailure, type ToolOutput } from '../tool.js';
import { ToolRegistry } from '../tool-registry.js';
import { createFailureTracker } from './loop-breaker.js';
import { type ExecuteBatchOptions, executeBatch } from './tool-executor.js';

function options(
  registry: ToolRegistry,
  extra: Partial<ExecuteBatchOptions> = {},
): ExecuteBatchOptions {
  return {
    registry,
    runId: 'run-1',
    step: 1,
    workdir: '/tmp',
    signal: new AbortController().signal,
    visibleTools: registry.names(),
    maxParallel: 4,
    events: new EventBus([], nullLogger),
    logger: nullLogger,
    ...extra,
  };
}

/**
 * Options whose event bus keeps every `tool.end`: how each call ended, as watchers (the tracer,
 * the terminal) see it, typed failure included.
 */
function watched(registry: ToolRegistry, extra: Partial<ExecuteBatchOptions> = {}) {
  const ends: Extract<RunEvent, { type: 'tool.end' }>[] = [];
  const events = new EventBus([(e) => void (e.type === 'tool.end' && ends.push(e))], nullLogger);
  return {
    options: options(registry, { ...extra, events }),
    ends,
    /** The failure of each ended call's observation, in the order the calls ended. */
    failures: (): (ToolFailure | undefined)[] => ends.map((end) => end.observation.failure),
  };
}

const call = (id: string, name: string, label = id): ToolCall => ({
  id,
  name,
  arguments: { label },
});

/** Lets every pending promise callback run, so "has not started" means it really has not. */
const settle = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

/**
 * A tool whose calls wait until the test releases them by label, and which logs when each call
 * starts and ends: concurrency is observed through order, never through clocks.
 */
function gatedTool(name: string, parallelSafe: boolean) {
  const log: string[] = [];
  const waiting = new Map<string, () => void>();
  const tool = defineTool({
    name,
    description: `gated ${name}`,
    parallelSafe,
    parameters: z.object({ label: z.string() }),
    run: async ({ label }) => {
      log.push(`start:${label}`);
      await new Promise<void>((resolve) => waiting.set(label, resolve));
      log.push(`end:${label}`);
      return `${name}:${label}`;
    },
  });
  const started = () => log.filter((entry) => entry.startsWith('start:')).length;
  const release = (label: string) => {
    const open = waiting.get(label);
    if (!open) throw new Error(`${label} is not waiting`);
    waiting.delete(label);
    open();
  };
  return { tool, log, started, release };
}

describe('executeBatch', () => {
  it('runs consecutive parallel-safe calls concurrently and keeps the model order', async () => {
    const reader = gatedTool('reader', true);
    const registry = new ToolRegistry().register(reader.tool);
    const calls = ['a', 'b', 'c', 'd'].map((id) => call(id, 'reader'));
    const running = executeBatch(calls, options(registry));
    await vi.waitFor(() => expect(reader.started()).toBe(4));
    for (const label of ['d', 'c', 'b', 'a']) reader.release(label);
    const outcome = await running;
    expect(outcome.observations.map((m) => m.toolCallId)).toEqual(['a', 'b', 'c', 'd']);
    expect(outcome.observations.map((m) => m.metadata?.tool_call_index)).toEqual([0, 1, 2, 3]);
  });

  it('never runs more parallel calls at once than the cap', async () => {
    const reader = gatedTool('reader', true);
    const registry = new ToolRegistry().register(reader.tool);
    const calls = ['a', 'b', 'c', 'd', 'e'].map((id) => call(id, 'reader'));
    const running = executeBatch(calls, options(registry, { maxParallel: 2 }));
    await vi.waitFor(() => expect(reader.started()).toBe(2));
    await settle();
    expect(reader.started()).toBe(2);
    reader.release('a');
    await vi.waitFor(() => expect(reader.started()).toBe(3));
    await settle();
    expect(reader.started()).toBe(3);
    for (const label of ['b', 'c', 'd', 'e']) {
      await vi.waitFor(() => expect(reader.log).toContain(`start:${label}`));
      reader.release(label);
    }
    expect((await running).observations).toHaveLength(5);
  });

  it('runs a non-parallel call as a barrier after the calls before it finish', async () => {
    const reader = gatedTool('reader', true);
    const writer = gatedTool('writer', false);
    const registry = new ToolRegistry().register(reader.tool).register(writer.tool);
    const calls = [call('r1', 'reader'), call('w', 'writer'), call('r2', 'reader')];
    const running = executeBatch(calls, options(registry));
    await vi.waitFor(() => expect(reader.started()).toBe(1));
    await settle();
    expect(writer.started()).toBe(0);
    reader.release('r1');
    await vi.waitFor(() => expect(writer.started()).toBe(1));
    await settle();
    expect(reader.started()).toBe(1);
    writer.release('w');
    await vi.waitFor(() => expect(reader.started()).toBe(2));
    reader.release('r2');
    const outcome = await running;
    expect(outcome.observations.map((m) => m.toolCallId)).toEqual(['r1', 'w', 'r2']);
  });

  it('turns a tool that throws into an error observation and keeps going', async () => {
    const boom = defineTool({
      name: 'boom',
      description: '',
      parallelSafe: true,
      parameters: z.object({ label: z.string() }),
      run: async () => {
        throw new Error('kaput');
      },
    });
    const ok = defineTool({
      name: 'ok',
      description: '',
      parallelSafe: true,
      parameters: z.object({ label: z.string() }),
      run: () => 'fine',
    });
    const registry = new ToolRegistry().register(boom).register(ok);
    const watch = watched(registry);
    const outcome = await executeBatch([call('1', 'boom'), call('2', 'ok')], watch.options);
    expect(outcome.observations[0]).toMatchObject({
      role: 'tool',
      toolCallId: '1',
      isError: true,
      metadata: { tool_call_index: 0 },
    });
    expect(watch.ends[0]?.observation.failure).toMatchObject({
      kind: 'execution_error',
      retryable: true,
      attempt: 1,
    });
    expect(outcome.observations[0]?.content).toContain(
      'Error:\ntool boom failed unexpectedly: kaput',
    );
    expect(outcome.observations[1]).toMatchObject({
      toolCallId: '2',
      isError: false,
    });
  });

  it('gives every call a cancelled observation when the signal fires', async () => {
    const controller = new AbortController();
    const writer = gatedTool('writer', false);
    const registry = new ToolRegistry().register(writer.tool);
    const running = executeBatch(
      [call('1', 'writer'), call('2', 'writer'), call('3', 'writer')],
      options(registry, { signal: controller.signal }),
    );
    await vi.waitFor(() => expect(writer.started()).toBe(1));
    controller.abort();
    writer.release('1');
    const outcome = await running;
    expect(outcome.cancelled).toBe(true);
    expect(outcome.observations.map((m) => m.toolCallId)).toEqual(['1', '2', '3']);
    expect(outcome.observations.slice(1)).toEqual(
      ['2', '3'].map((id) => ({
        role: 'tool',
        content: 'tool call cancelled: the run was cancelled before this call finished',
        toolCallId: id,
        name: 'writer',
        isError: true,
      })),
    );
    expect(writer.started()).toBe(1);
  });

  it('stops at a suspended call, announces it, and lists every call still without an answer', async () => {
    const events: RunEvent[] = [];
    const plain = defineTool({
      name: 'w',
      description: '',
      parameters: z.object({ label: z.string() }),
      run: () => 'done',
    });
    const registry = new ToolRegistry().register(plain).use(async (c, next) =>
      c.call.id === '2'
        ? {
            status: 'suspended',
            approvalId: 'ap',
            checkpointId: 'cp',
            output: { content: 'wait', isError: true },
          }
        : next(c),
    );
    const calls = [call('1', 'w'), call('2', 'w'), call('3', 'w')];
    const outcome = await executeBatch(
      calls,
      options(registry, { events: new EventBus([(e) => void events.push(e)], nullLogger) }),
    );
    expect(outcome.observations.map((m) => m.toolCallId)).toEqual(['1']);
    expect(outcome.suspended).toMatchObject({
      callId: '2',
      index: 1,
      approvalId: 'ap',
      content: 'wait',
    });
    expect(events.map((e) => e.type)).toEqual([
      'tool.start',
      'tool.end',
      'tool.start',
      'tool.end',
      'approval.required',
    ]);
    expect(events[3]).toMatchObject({ status: 'suspended', index: 1 });
    expect(events[4]).toMatchObject({ approvalId: 'ap', checkpointId: 'cp', call: { id: '2' } });
  });
});

/** A tool that answers from a script of outputs (the last one repeats) and counts its runs. */
function scriptedTool(name: string, outputs: ToolOutput[], parallelSafe = false) {
  let runs = 0;
  const tool = defineTool({
    name,
    description: `scripted ${name}`,
    parallelSafe,
    parameters: z.object({ path: z.string().optional(), label: z.string().optional() }),
    run: async () => {
      const output = outputs[Math.min(runs, outputs.length - 1)] as ToolOutput;
      runs += 1;
      return output;
    },
  });
  return Object.assign(tool, { runs: () => runs });
}

const failing: ToolOutput = {
  content: 'could not find the old text in a.txt',
  isError: true,
  failure: {
    kind: 'no_match',
    code: 'edit_old_text_not_found',
    advice: 'Call read on a.txt, then copy the text exactly.',
    suggestedTool: 'read',
  },
  metadata: { closest_line: 3 },
};
const succeeding: ToolOutput = { content: 'edited a.txt', isError: false };
const readTool = defineTool({
  name: 'read',
  description: 'reads',
  parallelSafe: true,
  parameters: z.object({ label: z.string().optional() }),
  run: () => 'content',
});
const editCall = (id: string, args: Record<string, unknown> = { path: 'a.txt' }): ToolCall => ({
  id,
  name: 'edit',
  arguments: args,
});

describe('executeBatch failure guidance', () => {
  it('translates a failed call into the SOP observation with its category and attempt', async () => {
    const edit = scriptedTool('edit', [failing]);
    const registry = new ToolRegistry().register(edit).register(readTool);
    const watch = watched(registry);
    const outcome = await executeBatch([editCall('1')], watch.options);
    const observation = outcome.observations[0];
    expect(observation?.content).toMatch(
      /^Tool failed: the text to replace was not found\n\nError:\ncould not find the old text in a\.txt\n\nNext step:\nCall read on a\.txt/,
    );
    expect(observation?.content).toMatch(/\n\nAttempt: 1$/);
    expect(observation?.isError).toBe(true);
    expect(watch.failures()).toEqual([
      {
        kind: 'no_match',
        code: 'edit_old_text_not_found',
        advice: 'Call read on a.txt, then copy the text exactly.',
        suggestedTool: 'read',
        retryable: true,
        attempt: 1,
      },
    ]);
    expect(outcome.loopBreaker).toBeUndefined();
  });

  it('describes a failure once: kind, code and verdict in the failure, the tool metadata as it was', async () => {
    const edit = scriptedTool('edit', [failing]);
    const registry = new ToolRegistry().register(edit).register(readTool);
    const watch = watched(registry);
    const outcome = await executeBatch([editCall('1')], watch.options);
    // Watchers get the tool's own output untouched, and the model's observation carries the
    // tool's details and the loop's note of the call's place, nothing about the failure.
    expect(watch.ends[0]?.output).toEqual(failing);
    expect(watch.ends[0]?.observation.metadata).toEqual({ closest_line: 3 });
    expect(outcome.observations[0]?.metadata).toEqual({ closest_line: 3, tool_call_index: 0 });
  });

  it("carries a result's closing note to the observation, but not onto the guidance of a failure", async () => {
    const paged: ToolOutput = { content: 'one\n\n[page 1 of 2]', isError: false, footerChars: 14 };
    const edit = scriptedTool('edit', [paged, { ...failing, footerChars: 5 }]);
    const registry = new ToolRegistry().register(edit);
    const outcome = await executeBatch([editCall('1'), editCall('2')], options(registry));
    expect(outcome.observations[0]).toMatchObject({ footerChars: 14 });
    expect(outcome.observations[1]).not.toHaveProperty('footerChars');
  });

  it('answers a call to an unknown tool with the tools the model can see', async () => {
    const registry = new ToolRegistry().register(readTool);
    const watch = watched(registry);
    const outcome = await executeBatch(
      [{ id: '1', name: 'delete_everything', arguments: {} }],
      watch.options,
    );
    expect(watch.failures()[0]).toMatchObject({
      kind: 'unknown_tool',
      retryable: true,
      attempt: 1,
    });
    expect(outcome.observations[0]?.content).toContain('Use only the tools you can see: read.');
  });

  it('adds a repeat warning from the second failure of the same call', async () => {
    const edit = scriptedTool('edit', [failing]);
    const registry = new ToolRegistry().register(edit);
    const failureTracker = createFailureTracker();
    const watch = watched(registry, { failureTracker });
    const first = await executeBatch([editCall('1')], watch.options);
    const second = await executeBatch([editCall('2')], watch.options);
    expect(first.observations[0]?.content).not.toContain('Repeat warning:');
    expect(second.observations[0]?.content).toContain('Attempt: 2\n\nRepeat warning:\n');
    expect(watch.failures().map((failure) => failure?.attempt)).toEqual([1, 2]);
  });

  it("shows watchers the tool's own error while the model gets the guidance", async () => {
    const edit = scriptedTool('edit', [failing]);
    const registry = new ToolRegistry().register(edit);
    const ends: RunEvent[] = [];
    const events = new EventBus([(e) => void (e.type === 'tool.end' && ends.push(e))], nullLogger);
    const outcome = await executeBatch([editCall('1')], options(registry, { events }));
    const end = ends[0];
    expect(end?.type === 'tool.end' && end.output.content).toBe(
      'could not find the old text in a.txt',
    );
    expect(end?.type === 'tool.end' && end.observation.content).toMatch(/^Tool failed: /);
    expect(outcome.observations[0]?.content).toMatch(/^Tool failed: /);
  });

  it('passes cancelled tool outputs through without advice and without counting them', async () => {
    const cancelled: ToolOutput = {
      content: 'read cancelled',
      isError: true,
      failure: { kind: 'cancelled', code: 'cancelled' },
    };
    const edit = scriptedTool('edit', [cancelled]);
    const registry = new ToolRegistry().register(edit);
    const watch = watched(registry, { failureTracker: createFailureTracker() });
    for (const id of ['1', '2', '3']) {
      const outcome = await executeBatch([editCall(id)], watch.options);
      expect(outcome.observations[0]).toMatchObject({
        content: 'read cancelled',
        isError: true,
        metadata: { tool_call_index: 0 },
      });
    }
    expect(watch.failures()).toEqual(Array(3).fill({ kind: 'cancelled', code: 'cancelled' }));
    expect(edit.runs()).toBe(3);
  });
});

describe('executeBatch repeated-failure breaker', () => {
  it('does not execute the third identical failing call across turns of one run', async () => {
    const edit = scriptedTool('edit', [failing]);
    const registry = new ToolRegistry().register(edit);
    const watch = watched(registry, { failureTracker: createFailureTracker() });
    const outcomes = [];
    for (const id of ['1', '2', '3']) {
      outcomes.push(await executeBatch([editCall(id)], watch.options));
    }
    expect(edit.runs()).toBe(2);
    const third = outcomes[2];
    expect(third?.observations[0]).toMatchObject({
      role: 'tool',
      toolCallId: '3',
      isError: true,
      metadata: { tool_call_index: 0 },
    });
    expect(watch.ends[2]).toMatchObject({ status: 'completed', blocked: true });
    expect(watch.failures()[2]).toMatchObject({
      kind: 'execution_error',
      code: 'repeat_call_blocked',
      retryable: false,
      attempt: 3,
    });
    expect(third?.loopBreaker).toMatchObject({ role: 'user' });
    expect(third?.loopBreaker?.content).toContain(
      "you called the 'edit' tool 3 times in a row with the same arguments",
    );
    expect(third?.loopBreaker?.content).toContain('1. Stop guessing parameters.');
    expect(outcomes[0]?.loopBreaker).toBeUndefined();
    expect(outcomes[1]?.loopBreaker).toBeUndefined();
  });

  it('blocks the third identical failing call inside one turn and keeps the model order', async () => {
    const edit = scriptedTool('edit', [failing]);
    const registry = new ToolRegistry().register(edit);
    const calls = [editCall('1'), editCall('2'), editCall('3'), editCall('4')];
    const watch = watched(registry);
    const outcome = await executeBatch(calls, watch.options);
    expect(edit.runs()).toBe(2);
    expect(outcome.observations.map((m) => m.toolCallId)).toEqual(['1', '2', '3', '4']);
    expect(watch.failures().map((failure) => [failure?.kind, failure?.code])).toEqual([
      ['no_match', 'edit_old_text_not_found'],
      ['no_match', 'edit_old_text_not_found'],
      ['execution_error', 'repeat_call_blocked'],
      ['execution_error', 'repeat_call_blocked'],
    ]);
    expect(watch.failures().map((failure) => failure?.attempt)).toEqual([1, 2, 3, 4]);
    expect(watch.ends.map((end) => end.blocked)).toEqual([false, false, true, true]);
    expect(outcome.loopBreaker?.content).toContain("'edit' tool 3 times");
  });

  it('treats arguments that differ only in key order as the same call', async () => {
    const edit = scriptedTool('edit', [failing]);
    const registry = new ToolRegistry().register(edit);
    const calls = [
      editCall('1', { path: 'a.txt', label: 'x' }),
      editCall('2', { label: 'x', path: 'a.txt' }),
      editCall('3', { path: 'a.txt', label: 'x' }),
    ];
    const watch = watched(registry);
    await executeBatch(calls, watch.options);
    expect(edit.runs()).toBe(2);
    expect(watch.failures()[2]?.code).toBe('repeat_call_blocked');
  });

  it('counts calls with different arguments separately', async () => {
    const edit = scriptedTool('edit', [failing]);
    const registry = new ToolRegistry().register(edit);
    const calls = ['a', 'b', 'c', 'd'].map((p, i) => editCall(String(i), { path: p }));
    const watch = watched(registry);
    const outcome = await executeBatch(calls, watch.options);
    expect(edit.runs()).toBe(4);
    expect(watch.failures().every((failure) => failure?.attempt === 1)).toBe(true);
    expect(outcome.loopBreaker).toBeUndefined();
  });

  it('resets the count of a call when it succeeds', async () => {
    // The same call fails, then succeeds (say the file changed), then fails again: the count
    // starts over, so two more real attempts run before the breaker trips.
    const edit = scriptedTool('edit', [failing, succeeding, failing, failing]);
    const registry = new ToolRegistry().register(edit);
    const calls = ['1', '2', '3', '4', '5'].map((id) => editCall(id));
    const watch = watched(registry);
    const outcome = await executeBatch(calls, watch.options);
    expect(edit.runs()).toBe(4);
    expect(watch.failures().map((failure) => failure?.attempt)).toEqual([1, undefined, 1, 2, 3]);
    expect(outcome.observations[1]).toMatchObject({ content: 'edited a.txt' });
    expect(watch.failures()[4]?.code).toBe('repeat_call_blocked');
  });

  it('neither translates nor counts denied calls', async () => {
    const edit = scriptedTool('edit', [failing]);
    let deny = true;
    const registry = new ToolRegistry().register(edit).use(async (c, next) =>
      deny
        ? {
            status: 'denied',
            reason: 'denylist',
            output: {
              content: 'tool call denied by runtime policy',
              isError: true,
              failure: { kind: 'denied', code: 'deny_list' },
            },
          }
        : next(c),
    );
    const watch = watched(registry, { failureTracker: createFailureTracker() });
    const denied = await executeBatch(
      ['1', '2', '3', '4'].map((id) => editCall(id)),
      watch.options,
    );
    expect(denied.observations.map((m) => m.content)).toEqual(
      Array(4).fill('tool call denied by runtime policy'),
    );
    expect(denied.observations.every((m) => m.isError === true)).toBe(true);
    expect(watch.ends.every((end) => end.status === 'denied')).toBe(true);
    expect(watch.failures()).toEqual(Array(4).fill({ kind: 'denied', code: 'deny_list' }));
    expect(denied.loopBreaker).toBeUndefined();
    deny = false;
    await executeBatch([editCall('5')], watch.options);
    expect(edit.runs()).toBe(1);
    expect(watch.failures()[4]).toMatchObject({ kind: 'no_match', attempt: 1 });
  });

  it('does not count a suspended call as a failure', async () => {
    const edit = scriptedTool('edit', [failing]);
    let suspend = true;
    const registry = new ToolRegistry().register(edit).use(async (c, next) =>
      suspend
        ? {
            status: 'suspended',
            approvalId: 'ap',
            checkpointId: 'cp',
            output: { content: 'approval needed', isError: true },
          }
        : next(c),
    );
    const watch = watched(registry, { failureTracker: createFailureTracker() });
    for (const id of ['1', '2', '3']) {
      const outcome = await executeBatch([editCall(id)], watch.options);
      expect(outcome.suspended?.content).toBe('approval needed');
    }
    suspend = false;
    await executeBatch([editCall('4')], watch.options);
    expect(edit.runs()).toBe(1);
    expect(watch.failures()[3]?.attempt).toBe(1);
  });

  it('gives each batch a fresh tracker when the caller passes none', async () => {
    const edit = scriptedTool('edit', [failing]);
    const registry = new ToolRegistry().register(edit);
    for (const id of ['1', '2', '3']) {
      const watch = watched(registry);
      await executeBatch([editCall(id)], watch.options);
      expect(watch.failures()[0]?.attempt).toBe(1);
    }
    expect(edit.runs()).toBe(3);
  });
});
