import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runAndCapture } from '../agent/__fixtures__/agent-harness.js';
import { createAgent } from '../agent/create-agent.js';
import type { RunEvent } from '../observe/run-events.js';
import type { Tracer } from '../observe/tracer.js';
import type { SessionRef } from '../session/session-ref.js';
import { createMemoryStore } from '../store/memory-state-store.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';
import { defineTool, type SubagentHost, type Tool } from '../tool.js';
import type { RunResult } from './run-types.js';

let workdir: string;
beforeEach(async () => {
  workdir = await mkdtemp(join(tmpdir(), 'tiny-claw-subagent-host-'));
});
afterEach(() => rm(workdir, { recursive: true, force: true }));

const look = defineTool({
  name: 'look',
  description: 'looks at a thing',
  readOnly: true,
  parallelSafe: true,
  parameters: z.object({ at: z.string() }),
  run: ({ at }) => `saw ${at}`,
});

const poke = defineTool({
  name: 'poke',
  description: 'changes a thing',
  parameters: z.object({}),
  run: () => 'poked',
});

/** A tool that hands its task to a child run asking for `tools`, and answers the child's text. */
function delegate(
  tools: readonly string[],
  seen: { host?: SubagentHost; child?: RunResult },
  extraTools: readonly Tool[] = [],
) {
  return defineTool({
    name: 'delegate',
    description: 'asks a child',
    parameters: z.object({ task: z.string() }),
    subagentTools: extraTools.map((tool) => tool.name),
    run: async ({ task }, ctx) => {
      if (!ctx.subagents || !ctx.session)
        return { content: 'no host', failure: { kind: 'execution_error' } };
      seen.host = ctx.subagents;
      const session: SessionRef = {
        ...ctx.session,
        key: `${ctx.session.key}-child`,
        source: 'subagent',
      };
      const child = await ctx.subagents.run({
        prompt: task,
        instructions: 'You are a child.',
        session,
        maxSteps: 3,
        tools,
        extraTools,
      });
      seen.child = child;
      return `child said: ${child.text}`;
    },
  });
}

const usage = { input_tokens: 10, output_tokens: 1 };

describe('child runs started by a tool call', () => {
  it('nest under the call: events reach the calling run once, with the parent named, and child tokens count in its totals', async () => {
    const seen: { host?: SubagentHost; child?: RunResult } = {};
    const provider = new ScriptedProvider({
      turns: [
        { tool_calls: [{ id: 'd1', name: 'delegate', arguments: { task: 'find it' } }], usage },
        { tool_calls: [{ id: 'c1', name: 'look', arguments: { at: 'a.txt' } }], usage },
        { text: 'it is in a.txt', usage },
        { text: 'the answer is a.txt', usage },
      ],
    });
    const traced: RunEvent[] = [];
    const tracer: Tracer = {
      onEvent: (event) => {
        traced.push(event);
      },
      finishRun: async () => undefined,
    };
    const agent = createAgent({
      provider,
      workdir,
      tracer,
      tools: [look, poke, delegate(['look'], seen)],
    });
    const { result, events } = await runAndCapture(agent, 'where is it?');

    expect(result.stopReason).toBe('final');
    expect(result.text).toBe('the answer is a.txt');
    expect(seen.child?.text).toBe('it is in a.txt');
    const childStart = events.find((e) => e.type === 'run.start' && e.runId !== result.runId);
    expect(childStart).toMatchObject({
      type: 'run.start',
      caller: 'subagent',
      mode: 'act',
      parent: { runId: result.runId, toolCallId: 'd1' },
    });
    // Every event of the child reached the tracer exactly once.
    const childId = childStart?.runId;
    const childEvents = (list: RunEvent[]) =>
      list.filter((e) => e.runId === childId).map((e) => e.type);
    expect(childEvents(traced)).toEqual(childEvents(events));
    expect(childEvents(traced).filter((type) => type === 'run.start')).toHaveLength(1);
    // Four model calls of 11 tokens each: the child's two count in the parent's totals.
    expect(result.usage?.totalTokens).toBe(44);
    expect(seen.child?.usage?.totalTokens).toBe(22);
  });

  it('gives the child only the tools it asks for among those the calling run may use', async () => {
    const seen: { host?: SubagentHost; child?: RunResult } = {};
    const provider = new ScriptedProvider({
      turns: [
        { tool_calls: [{ id: 'd1', name: 'delegate', arguments: { task: 'poke it' } }] },
        { tool_calls: [{ id: 'c1', name: 'poke', arguments: {} }] },
        { text: 'could not poke' },
        { text: 'done' },
      ],
    });
    const agent = createAgent({
      provider,
      workdir,
      tools: [look, poke, delegate(['look', 'poke', 'ghost'], seen)],
      policy: { deny: ['poke'] },
    });
    const { events } = await runAndCapture(agent, 'go');

    expect(seen.host?.allows('poke')).toBe(false);
    expect(seen.host?.allows('look')).toBe(true);
    expect(seen.host?.tools).toEqual([
      { name: 'delegate', readOnly: false },
      { name: 'look', readOnly: true },
    ]);
    const childStep = events.find((e) => e.type === 'step.start' && e.runId !== events[0]?.runId);
    expect(childStep).toMatchObject({ type: 'step.start', tools: ['look'] });
    const childPoke = events.find((e) => e.type === 'tool.end' && e.call.id === 'c1');
    expect(childPoke).toMatchObject({ type: 'tool.end', output: { isError: true } });
  });

  it('may be given tools the calling run is not shown, unless the policy refuses them', async () => {
    const seen: { host?: SubagentHost; child?: RunResult } = {};
    const script = () =>
      new ScriptedProvider({
        turns: [
          { tool_calls: [{ id: 'd1', name: 'delegate', arguments: { task: 'look' } }] },
          { tool_calls: [{ id: 'c1', name: 'look', arguments: { at: 'secret.txt' } }] },
          { text: 'child done' },
          { text: 'parent done' },
        ],
      });
    const shown = createAgent({
      provider: script(),
      workdir,
      tools: [delegate(['look'], seen, [look])],
    });
    const allowed = await runAndCapture(shown, 'go');
    expect(allowed.result.text).toBe('parent done');
    expect(allowed.events.find((e) => e.type === 'tool.end' && e.call.id === 'c1')).toMatchObject({
      output: { content: 'saw secret.txt', isError: false },
    });
    // The calling run itself was never shown the tool.
    expect(allowed.events.find((e) => e.type === 'step.start')).toMatchObject({
      tools: ['delegate'],
    });

    const denied = createAgent({
      provider: script(),
      workdir,
      tools: [delegate(['look'], seen, [look])],
      policy: { deny: ['look'] },
    });
    const refused = await runAndCapture(denied, 'go');
    expect(refused.events.find((e) => e.type === 'tool.end' && e.call.id === 'c1')).toMatchObject({
      output: { isError: true },
    });
    const childStep = refused.events.find(
      (e) => e.type === 'step.start' && e.runId !== refused.result.runId,
    );
    expect(childStep).toMatchObject({ tools: [] });
  });

  it("cannot pause: their calls reach the middlewares marked as not pausable, the caller's are not", async () => {
    const seen: { host?: SubagentHost; child?: RunResult } = {};
    const pausable = new Map<string, boolean | undefined>();
    const provider = new ScriptedProvider({
      turns: [
        { tool_calls: [{ id: 'd1', name: 'delegate', arguments: { task: 'look' } }] },
        { tool_calls: [{ id: 'c1', name: 'look', arguments: { at: 'x' } }] },
        { text: 'child done' },
        { text: 'parent done' },
      ],
    });
    const agent = createAgent({
      provider,
      workdir,
      tools: [look, delegate(['look'], seen)],
      middleware: [
        (ctx, next) => {
          pausable.set(ctx.call.id, ctx.pausable);
          return next(ctx);
        },
      ],
    });
    await runAndCapture(agent, 'go');
    expect(pausable.get('d1')).toBeUndefined();
    expect(pausable.get('c1')).toBe(false);
  });

  it('leave the session memories to the caller: the child writes none, the parent records only its own prompt and answer', async () => {
    const seen: { host?: SubagentHost; child?: RunResult } = {};
    const store = createMemoryStore();
    const provider = new ScriptedProvider({
      turns: [
        { tool_calls: [{ id: 'd1', name: 'delegate', arguments: { task: 'find it' } }] },
        { text: 'child report' },
        { text: 'parent answer' },
      ],
    });
    const agent = createAgent({
      provider,
      workdir,
      store,
      tools: [look, delegate(['look'], seen)],
    });
    const { result } = await runAndCapture(agent, 'parent prompt', { session: 'default' });

    const parentMemory = await store.memory({ key: result.sessionKey }).readRecent(10);
    expect(parentMemory.join('\n')).toContain('parent prompt');
    expect(parentMemory.join('\n')).not.toContain('child report');
    const childMemory = await store.memory({ key: `${result.sessionKey}-child` }).readRecent(10);
    expect(childMemory).toEqual([]);
  });

  it('stop when the calling run is cancelled', async () => {
    const seen: { host?: SubagentHost; child?: RunResult } = {};
    const controller = new AbortController();
    const stopper = defineTool({
      name: 'look',
      description: 'cancels the run while looking',
      readOnly: true,
      parameters: z.object({ at: z.string() }),
      run: () => {
        controller.abort();
        return 'looked';
      },
    });
    const provider = new ScriptedProvider({
      turns: [
        { tool_calls: [{ id: 'd1', name: 'delegate', arguments: { task: 'find it' } }] },
        { tool_calls: [{ id: 'c1', name: 'look', arguments: { at: 'x' } }] },
        { text: 'never asked' },
      ],
    });
    const agent = createAgent({ provider, workdir, tools: [stopper, delegate(['look'], seen)] });
    const { result } = await runAndCapture(agent, 'go', { signal: controller.signal });

    expect(seen.child?.stopReason).toBe('cancelled');
    expect(result.stopReason).toBe('cancelled');
  });
});
