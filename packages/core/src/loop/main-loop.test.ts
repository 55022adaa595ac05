import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BuildContextInput, ContextBuilder } from '../context/context-builder.js';
import { ConfigurationError, ProviderError } from '../errors.js';
import type { Message } from '../messages.js';
import type { Channel } from '../observe/channel.js';
import { FilePlanStoreFactory } from '../plan/plan-files.js';
import type { LLMProvider, LLMRequest } from '../provider.js';
import { EchoProvider } from '../testing/echo-provider.js';
import { InMemoryMemory, slowTool, testSession } from '../testing/fakes.js';
import type { Script } from '../testing/script.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';
import { defineTool } from '../tool.js';
import { ToolRegistry } from '../tool-registry.js';
import { MainLoop } from './main-loop.js';

const noteTool = defineTool({
  name: 'note',
  description: 'returns the note',
  parallelSafe: true,
  parameters: z.object({ text: z.string() }),
  run: async ({ text }) => ({ content: `noted: ${text}`, isError: false }),
});

function setup(script: Script, registry = new ToolRegistry().register(noteTool)) {
  const provider = new ScriptedProvider(script);
  const memory = new InMemoryMemory();
  const loop = new MainLoop({ provider, tools: registry, memory });
  return { provider, memory, loop };
}

const threeTurns: Script = {
  turns: [
    { text: 'looking', tool_calls: [{ name: 'note', arguments: { text: 'one' } }] },
    { tool_calls: [{ name: 'note', arguments: { text: 'two' } }] },
    { text: 'all done' },
  ],
};

/** Every assistant tool call must be answered by exactly one tool message. */
function expectEveryCallAnswered(messages: Message[]) {
  const callIds = messages.flatMap((m) => (m.toolCalls ?? []).map((c) => c.id));
  const resultIds = messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId);
  expect(resultIds.sort()).toEqual(callIds.sort());
}

describe('MainLoop', () => {
  it('finishes with the final answer after a three-turn scripted run', async () => {
    const { loop, provider } = setup(threeTurns);
    const result = await loop.run({ prompt: 'go', session: testSession() });
    expect(result).toMatchObject({
      stopReason: 'final',
      steps: 3,
      text: 'all done',
      provider: 'scripted',
    });
    const third = provider.requests[2] as LLMRequest;
    expect(third.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'noted: one',
      'noted: two',
    ]);
    expect(result.runId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('stops with max_steps_exhausted and the last assistant text when steps run out', async () => {
    const { loop } = setup(threeTurns);
    const result = await loop.run({ prompt: 'go', session: testSession(), maxSteps: 2 });
    expect(result).toMatchObject({
      stopReason: 'max_steps_exhausted',
      steps: 2,
      maxSteps: 2,
      text: '',
    });
  });

  it('records the prompt and answer in the session memory and reads them back next run', async () => {
    const { loop, memory, provider } = setup({
      turns: [{ text: 'first answer' }, { text: 'second' }],
    });
    const session = testSession('/w', 'alpha');
    await loop.run({ prompt: 'first prompt', session });
    expect(memory.lines.get(session.key)).toEqual([
      { key: 'last_prompt', value: 'first prompt' },
      { key: 'last_response', value: 'first answer' },
    ]);
    await loop.run({ prompt: 'again', session });
    const system = (provider.requests[1] as LLMRequest).messages.filter((m) => m.role === 'system');
    expect(system.map((m) => m.content).join('\n')).toContain('last_response: first answer');
  });

  it('keeps named sessions apart', async () => {
    const { loop, provider } = setup({ turns: [{ text: 'secret answer' }, { text: 'other' }] });
    await loop.run({ prompt: 'p1', session: testSession('/w', 'one') });
    await loop.run({ prompt: 'p2', session: testSession('/w', 'two') });
    const second = JSON.stringify((provider.requests[1] as LLMRequest).messages);
    expect(second).not.toContain('secret answer');
  });

  it('sends no tools and tool_choice none in think mode and blocks a tool call', async () => {
    const { loop, provider } = setup({
      turns: [{ text: 'let me call', tool_calls: [{ name: 'note', arguments: { text: 'x' } }] }],
    });
    const result = await loop.run({ prompt: 'think', session: testSession(), mode: 'think' });
    expect(provider.requests[0]).toMatchObject({ tools: [], toolChoice: 'none' });
    expect(result).toMatchObject({
      stopReason: 'tool_policy_blocked',
      text: 'let me call',
      steps: 1,
    });
  });

  it('offers the registered tools with tool_choice auto in act mode', async () => {
    const { loop, provider } = setup({ turns: [{ text: 'ok' }] });
    await loop.run({ prompt: 'act', session: testSession() });
    expect(provider.requests[0]?.toolChoice).toBe('auto');
    expect(provider.requests[0]?.tools.map((t) => t.name)).toEqual(['note']);
  });

  it('answers every tool call exactly once, including unknown tools and bad arguments', async () => {
    const { loop, provider } = setup({
      turns: [
        {
          tool_calls: [
            { name: 'note', arguments: { text: 'fine' } },
            { name: 'nope', arguments: {} },
            { name: 'note', arguments: '{"text": "trunc' },
            { name: 'note', arguments: { text: 5 } },
          ],
        },
        { text: 'done' },
      ],
    });
    const result = await loop.run({ prompt: 'go', session: testSession() });
    expect(result.stopReason).toBe('final');
    const messages = (provider.requests[1] as LLMRequest).messages;
    expectEveryCallAnswered(messages);
    const tools = messages.filter((m) => m.role === 'tool');
    expect(tools[1]?.content).toContain('unknown tool: "nope"');
    expect(tools[2]?.content).toContain('Error:\nfailed to parse tool arguments: invalid JSON');
    expect(tools[3]?.content).toContain('Error:\nfailed to parse tool arguments: text:');
  });

  it('nudges after an empty turn and stops after three empty turns in a row', async () => {
    const { loop, provider } = setup({
      turns: [{ text: '' }, { text: '  ' }, { text: '' }, { text: 'never' }],
    });
    const result = await loop.run({ prompt: 'go', session: testSession() });
    expect(result).toMatchObject({ stopReason: 'provider_error', steps: 3 });
    expect(result.text).toContain('3 empty replies');
    expect(provider.requests[1]?.messages.at(-1)?.content).toContain('Your last reply was empty');
  });

  it('recovers when an empty turn is followed by a real answer', async () => {
    const { loop } = setup({ turns: [{ text: '' }, { text: 'here' }] });
    const result = await loop.run({ prompt: 'go', session: testSession() });
    expect(result).toMatchObject({ stopReason: 'final', steps: 2, text: 'here' });
  });

  it('ends with provider_error and no memory write when the provider fails', async () => {
    const failing: LLMProvider = {
      name: 'broken',
      complete: async () => {
        throw new ProviderError('upstream said 500');
      },
    };
    const memory = new InMemoryMemory();
    const loop = new MainLoop({ provider: failing, tools: new ToolRegistry(), memory });
    const session = testSession();
    const result = await loop.run({ prompt: 'go', session });
    expect(result).toMatchObject({ stopReason: 'provider_error', steps: 1 });
    expect(result.text).toContain('upstream said 500');
    expect(memory.lines.get(session.key) ?? []).toEqual([]);
  });

  it('stops with cancelled when the signal fires during a model call', async () => {
    const controller = new AbortController();
    const hanging: LLMProvider = {
      name: 'slow',
      complete: (_req, opts) =>
        new Promise((_resolve, reject) => {
          opts?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
          // Cancel while this call is in flight, however slow the machine is.
          setTimeout(() => controller.abort(), 5);
        }),
    };
    const loop = new MainLoop({
      provider: hanging,
      tools: new ToolRegistry(),
      memory: new InMemoryMemory(),
    });
    const run = loop.run({ prompt: 'go', session: testSession(), signal: controller.signal });
    expect(await run).toMatchObject({ stopReason: 'cancelled', steps: 1 });
  });

  it('stops with cancelled after a tool batch interrupted by the signal', async () => {
    const controller = new AbortController();
    const writer = slowTool('slow_write', { delayMs: 30, parallelSafe: false });
    const provider = new ScriptedProvider({
      turns: [
        { tool_calls: [{ name: 'slow_write' }, { name: 'slow_write' }] },
        { text: 'unreached' },
      ],
    });
    const loop = new MainLoop({
      provider,
      tools: new ToolRegistry().register(writer),
      memory: new InMemoryMemory(),
    });
    // Cancel while the first call of the batch is running, however slow the machine is.
    const channel: Channel = { onToolCall: () => controller.abort() };
    const result = await loop.run({
      prompt: 'go',
      session: testSession(),
      signal: controller.signal,
      channel,
    });
    expect(result).toMatchObject({ stopReason: 'cancelled', steps: 1 });
    expect(provider.requests).toHaveLength(1);
    expect(writer.spans.length).toBeLessThanOrEqual(1);
  });

  it('keeps running when a channel callback throws', async () => {
    const channel: Channel = {
      onStart: () => {
        throw new Error('bad channel');
      },
      onToolResult: () => {
        throw new Error('bad channel');
      },
    };
    const { loop } = setup(threeTurns);
    const result = await loop.run({ prompt: 'go', session: testSession(), channel });
    expect(result.stopReason).toBe('final');
  });

  it('reports progress to the channel in order', async () => {
    const events: string[] = [];
    const channel: Channel = {
      onStart: () => events.push('start'),
      onStep: (e) => events.push(`step${e.step}`),
      onTextDelta: (t) => events.push(`delta:${t}`),
      onToolCall: (e) => events.push(`call:${e.call.name}`),
      onToolResult: (e) => events.push(`result:${e.output.content}`),
      onDone: (r) => events.push(`done:${r.stopReason}`),
    };
    const { loop } = setup({
      turns: [{ tool_calls: [{ name: 'note', arguments: { text: 'a' } }] }, { text: 'ok' }],
    });
    await loop.run({ prompt: 'go', session: testSession(), channel });
    expect(events).toEqual([
      'start',
      'step1',
      'call:note',
      'result:noted: a',
      'step2',
      'delta:ok',
      'done:final',
    ]);
  });

  it('answers with the prompt through the echo provider', async () => {
    const loop = new MainLoop({
      provider: new EchoProvider(),
      tools: new ToolRegistry(),
      memory: new InMemoryMemory(),
    });
    const result = await loop.run({ prompt: 'hello', session: testSession() });
    expect(result).toMatchObject({
      text: 'hello',
      stopReason: 'final',
      steps: 1,
      provider: 'echo',
      model: 'echo',
    });
  });

  it('sums usage over the steps of a run', async () => {
    const { loop } = setup({
      turns: [
        {
          tool_calls: [{ name: 'note', arguments: { text: 'a' } }],
          usage: { input_tokens: 10, output_tokens: 2 },
        },
        { text: 'ok', usage: { input_tokens: 15, output_tokens: 3 } },
      ],
    });
    const result = await loop.run({ prompt: 'go', session: testSession() });
    expect(result.usage).toEqual({ inputTokens: 25, outputTokens: 5, totalTokens: 30 });
  });

  it('rejects an invalid step limit, and the plan modes without a plan store', async () => {
    const { loop } = setup({ turns: [] });
    await expect(loop.run({ prompt: 'x', session: testSession(), maxSteps: 0 })).rejects.toThrow(
      'maxSteps must be an integer of at least 1',
    );
    for (const mode of ['plan', 'plan-act'] as const) {
      await expect(loop.run({ prompt: 'x', session: testSession(), mode })).rejects.toThrow(
        ConfigurationError,
      );
    }
  });

  it('retries once after aggressive compaction when the provider reports a context-length error', async () => {
    const requests: LLMRequest[] = [];
    let calls = 0;
    const provider: LLMProvider = {
      name: 'picky',
      complete: async (req) => {
        requests.push(req);
        calls += 1;
        if (calls === 2)
          throw new ProviderError('prompt is too long', { kind: 'context_length', status: 400 });
        if (calls === 1) {
          return {
            message: {
              role: 'assistant',
              content: '',
              toolCalls: [{ id: 'a', name: 'note', arguments: { text: 'x'.repeat(5000) } }],
            },
            provider: 'picky',
          };
        }
        return { message: { role: 'assistant', content: 'fits now' }, provider: 'picky' };
      },
    };
    const loop = new MainLoop({
      provider,
      tools: new ToolRegistry().register(noteTool),
      memory: new InMemoryMemory(),
    });
    const result = await loop.run({ prompt: 'go', session: testSession() });
    expect(result).toMatchObject({ stopReason: 'final', text: 'fits now', steps: 2 });
    const retried = requests[2]?.messages.find((m) => m.role === 'tool')?.content ?? '';
    expect(retried.length).toBeLessThan(5000);
  });

  it('gives up with provider_error when the request is still too long after one retry', async () => {
    let calls = 0;
    const provider: LLMProvider = {
      name: 'picky',
      complete: async () => {
        calls += 1;
        throw new ProviderError('context_length_exceeded', { kind: 'context_length', status: 400 });
      },
    };
    const loop = new MainLoop({
      provider,
      tools: new ToolRegistry(),
      memory: new InMemoryMemory(),
    });
    const result = await loop.run({ prompt: 'go', session: testSession() });
    expect(result.stopReason).toBe('provider_error');
    expect(calls).toBe(2);
  });

  it('compacts a huge tool output in the request only, keeping it whole in the run history', async () => {
    const huge = `START${'y'.repeat(300_000)}END`;
    const bigTool = defineTool({
      name: 'dump',
      description: 'dumps',
      parallelSafe: true,
      parameters: z.object({}),
      run: async () => ({ content: huge, isError: false }),
    });
    const provider = new ScriptedProvider({
      turns: [
        { tool_calls: [{ name: 'dump' }] },
        { tool_calls: [{ name: 'dump' }] },
        { text: 'ok' },
      ],
    });
    const loop = new MainLoop({
      provider,
      tools: new ToolRegistry().register(bigTool),
      memory: new InMemoryMemory(),
      compaction: { maxChars: 120_000, retainLastMessages: 1 },
    });
    await loop.run({ prompt: 'go', session: testSession() });
    const third = (provider.requests[2] as LLMRequest).messages.filter((m) => m.role === 'tool');
    expect(third[0]?.content).toContain('Earlier tool output removed');
    expect(third[1]?.content.length).toBeLessThan(10_000);
    expect(third[1]?.content.startsWith('START')).toBe(true);
    // Once over budget even the newest output is head/tail-trimmed in the request.
    const second = (provider.requests[1] as LLMRequest).messages.filter((m) => m.role === 'tool');
    expect(second[0]?.content.length).toBeLessThan(10_000);
  });

  it('adds up the estimated cost the provider reports per call', async () => {
    let calls = 0;
    const provider: LLMProvider = {
      name: 'priced',
      complete: async () => {
        calls += 1;
        return calls === 1
          ? {
              message: {
                role: 'assistant',
                content: '',
                toolCalls: [{ id: '1', name: 'note', arguments: { text: 'a' } }],
              },
              provider: 'priced',
              costUsd: 0.25,
            }
          : { message: { role: 'assistant', content: 'done' }, provider: 'priced', costUsd: 0.5 };
      },
    };
    const loop = new MainLoop({
      provider,
      tools: new ToolRegistry().register(noteTool),
      memory: new InMemoryMemory(),
    });
    expect((await loop.run({ prompt: 'go', session: testSession() })).costUsd).toBe(0.75);
  });

  it('does not run the third identical failing call and tells the model to change strategy', async () => {
    let runs = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'always fails',
      parallelSafe: false,
      parameters: z.object({ n: z.number() }),
      run: async () => {
        runs += 1;
        return { content: 'it broke', isError: true };
      },
    });
    const same = { name: 'flaky', arguments: { n: 1 } };
    const provider = new ScriptedProvider({
      turns: [
        { tool_calls: [same] },
        { tool_calls: [same] },
        { tool_calls: [same] },
        { text: 'giving up' },
      ],
    });
    const loop = new MainLoop({
      provider,
      tools: new ToolRegistry().register(flaky),
      memory: new InMemoryMemory(),
    });
    const result = await loop.run({ prompt: 'go', session: testSession() });
    expect(result.stopReason).toBe('final');
    expect(runs).toBe(2);
    const last = (provider.requests[3] as LLMRequest).messages;
    expect(last.at(-2)?.metadata).toMatchObject({
      error_type: 'repeat_call_blocked',
      doom_loop_detected: true,
    });
    expect(last.at(-1)).toMatchObject({ role: 'user' });
    expect(last.at(-1)?.content).toContain("'flaky'");
    expectEveryCallAnswered(last);
  });
});

/** Keeps the run's message list so a test can inspect the history after the last model call. */
class CapturingBuilder extends ContextBuilder {
  messages: Message[] = [];

  override async build(input: BuildContextInput) {
    const built = await super.build(input);
    this.messages = built.messages;
    return built;
  }
}

const failTool = defineTool({
  name: 'fail',
  description: 'always fails',
  parallelSafe: false,
  parameters: z.object({}),
  run: async () => ({ content: 'exit code 1\nstack…', isError: true }),
});

/** A planning reply with a PLAN.md and one checkbox per item. */
const planReply = (...items: string[]) =>
  `<PLAN_MD>\n# PLAN.md\n\nBuild it.\n</PLAN_MD>\n<TODO_MD>\n${items.map((item) => `- [ ] ${item}`).join('\n')}\n</TODO_MD>`;

describe('MainLoop plan modes', () => {
  let stateDir: string;

  beforeEach(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'tiny-claw-loop-plan-'));
  });
  afterEach(() => rm(stateDir, { recursive: true, force: true }));

  function planSetup(script: Script) {
    const provider = new ScriptedProvider(script);
    const memory = new InMemoryMemory();
    const plans = new FilePlanStoreFactory(stateDir);
    const context = new CapturingBuilder();
    const registry = new ToolRegistry().register(noteTool).register(failTool);
    const loop = new MainLoop({
      provider,
      tools: registry,
      memory,
      plans,
      contextBuilder: context,
    });
    const session = testSession(stateDir, 'planner');
    return { provider, memory, loop, session, store: plans.forSession(session), context };
  }
  const lastUserText = (request: LLMRequest | undefined) =>
    request?.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';

  it('plan writes PLAN.md and TODO.md from one tool-less model call', async () => {
    const { loop, provider, session, store } = planSetup({
      turns: [{ text: planReply('TC-001 Create files', 'Write tests') }],
    });
    const result = await loop.run({ prompt: 'build a CLI', session, mode: 'plan' });
    expect(result).toMatchObject({
      stopReason: 'final',
      steps: 1,
      mode: 'plan',
      plan: '# PLAN.md\n\nBuild it.\n',
    });
    expect(result.text.endsWith('Next TODO: TC-001 Create files')).toBe(true);
    expect(await readFile(store.todoPath, 'utf8')).toBe(
      '# TODO.md\n\n- [ ] TC-001 Create files\n- [ ] TC-002 Write tests\n',
    );
    expect(provider.requests[0]).toMatchObject({ tools: [], toolChoice: 'none' });
    expect(provider.requests[0]?.messages.at(-1)).toMatchObject({ role: 'system' });
    expect(provider.requests[0]?.messages.at(-1)?.content).toContain('Plan Mode is ON');
  });

  it('plan shows an existing plan without a model call and remembers where it is', async () => {
    const { loop, provider, memory, session, store } = planSetup({
      turns: [{ text: planReply('TC-001 Create files') }],
    });
    const first = await loop.run({ prompt: 'build a CLI', session, mode: 'plan' });
    const second = await loop.run({ prompt: 'show it', session, mode: 'plan' });
    expect(provider.requests).toHaveLength(1);
    expect(second).toMatchObject({
      stopReason: 'final',
      steps: 1,
      text: first.text,
      plan: first.plan,
    });
    expect(memory.lines.get(session.key)?.slice(-2)).toEqual([
      { key: 'last_prompt', value: 'show it' },
      { key: 'last_response', value: `session_plan=${store.dir}\nnext_todo=TC-001 Create files` },
    ]);
  });

  it('plan blocks tool calls, answers every one and writes no plan files', async () => {
    const { loop, session, store, context } = planSetup({
      turns: [
        {
          text: 'let me look first',
          tool_calls: [
            { name: 'note', arguments: { text: 'a' } },
            { name: 'note', arguments: { text: 'b' } },
          ],
        },
      ],
    });
    const result = await loop.run({ prompt: 'build', session, mode: 'plan' });
    expect(result).toMatchObject({ stopReason: 'tool_policy_blocked', text: 'let me look first' });
    expect(result.plan).toBeUndefined();
    expect(await store.read()).toBeUndefined();
    expectEveryCallAnswered(context.messages);
    const results = context.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual([
      'Tool calls are not allowed in the plan phase; this call was not executed.',
      'Tool calls are not allowed in the plan phase; this call was not executed.',
    ]);
  });

  it('plan-act plans, executes the first TODO, marks it done and goes on to the next', async () => {
    const { loop, provider, session, store } = planSetup({
      turns: [
        { text: planReply('TC-001 Create files', 'TC-002 Write tests') },
        { tool_calls: [{ name: 'note', arguments: { text: 'files' } }] },
        { text: 'Created.\nPLAN_STEP_STATUS: completed' },
        { text: 'Tests written.\nPLAN_STEP_STATUS: completed' },
      ],
    });
    const result = await loop.run({ prompt: 'build a CLI', session, mode: 'plan-act' });
    expect(result).toMatchObject({
      stopReason: 'final',
      steps: 4,
      mode: 'plan-act',
      text: 'Tests written.\nPLAN_STEP_STATUS: completed',
      plan: '# PLAN.md\n\nBuild it.\n',
    });
    expect(provider.requests[0]).toMatchObject({ tools: [], toolChoice: 'none' });
    const act = provider.requests[1];
    expect(act?.toolChoice).toBe('auto');
    expect(act?.tools.map((t) => t.name)).toEqual(['fail', 'note']);
    expect(lastUserText(act).startsWith('Plan-Act execution phase is ON')).toBe(true);
    expect(lastUserText(act)).toContain('Current TODO: TC-001 Create files');
    expect(lastUserText(provider.requests[3])).toContain('Current TODO: TC-002 Write tests');
    expect(lastUserText(provider.requests[3])).toContain('- [x] TC-001 Create files');
    expect(await readFile(store.todoPath, 'utf8')).toBe(
      '# TODO.md\n\n- [x] TC-001 Create files\n- [x] TC-002 Write tests\n',
    );
  });

  it('plan-act records a short blocker and keeps the TODO open when the model is blocked', async () => {
    const { loop, provider, session, store } = planSetup({
      turns: [
        { text: planReply('TC-001 Publish', 'TC-002 Announce') },
        {
          text: `I tried ${'many things '.repeat(100)}.\n\nThe registry is offline.\nPLAN_STEP_STATUS: blocked`,
        },
      ],
    });
    const result = await loop.run({ prompt: 'release', session, mode: 'plan-act' });
    expect(result).toMatchObject({ stopReason: 'final', steps: 2 });
    expect(provider.requests).toHaveLength(2);
    expect(await readFile(store.todoPath, 'utf8')).toBe(
      '# TODO.md\n\n- [ ] TC-001 Publish\n- [ ] TC-002 Announce\n\n## Blockers\n\n- TC-001: The registry is offline.\n',
    );
  });

  it('plan-act keeps the TODO open when a tool failed during it, even if the model says completed', async () => {
    const { loop, provider, session, store } = planSetup({
      turns: [
        { text: planReply('TC-001 Build', 'TC-002 Ship') },
        { tool_calls: [{ name: 'fail' }] },
        { text: 'Done anyway.\nPLAN_STEP_STATUS: completed' },
      ],
    });
    const result = await loop.run({ prompt: 'build', session, mode: 'plan-act' });
    expect(result).toMatchObject({ stopReason: 'final', steps: 3 });
    expect(provider.requests).toHaveLength(3);
    const todo = await readFile(store.todoPath, 'utf8');
    expect(todo).toContain('- [ ] TC-001 Build');
    expect(todo).toContain(
      '- TC-001: Reported completed, but a tool call failed while working on this item: fail: ',
    );
  });

  it('plan-act regenerates the plan on needs_replan, keeping completed items, then continues', async () => {
    const { loop, provider, session, store } = planSetup({
      turns: [
        { text: planReply('TC-001 Setup', 'TC-002 Call the REST API') },
        { text: 'Set up.\nPLAN_STEP_STATUS: completed' },
        { text: 'PLAN_STEP_STATUS: needs_replan\nREST is gone; the service speaks GraphQL now.' },
        {
          text: '<PLAN_MD># PLAN.md\n\nUse GraphQL.</PLAN_MD><TODO_MD>- [ ] TC-003 Call the GraphQL API</TODO_MD>',
        },
        { text: 'Called.\nPLAN_STEP_STATUS: completed' },
      ],
    });
    const result = await loop.run({ prompt: 'integrate', session, mode: 'plan-act' });
    expect(result).toMatchObject({
      stopReason: 'final',
      steps: 5,
      plan: '# PLAN.md\n\nUse GraphQL.\n',
    });
    const replan = provider.requests[3];
    expect(replan).toMatchObject({ tools: [], toolChoice: 'none' });
    expect(lastUserText(replan)).toContain(
      'While executing TC-002 Call the REST API you asked for a new plan: REST is gone; the service speaks GraphQL now.',
    );
    expect(lastUserText(replan)).toContain('Keep every completed item');
    expect(lastUserText(provider.requests[4])).toContain(
      'Current TODO: TC-003 Call the GraphQL API',
    );
    expect(await readFile(store.todoPath, 'utf8')).toBe(
      '# TODO.md\n\n- [x] TC-001 Setup\n- [x] TC-003 Call the GraphQL API\n',
    );
  });

  it('plan-act ends with max_steps_exhausted when needs_replan comes on the last step', async () => {
    const { loop, session, store } = planSetup({
      turns: [{ text: 'PLAN_STEP_STATUS: needs_replan\nwrong approach' }],
    });
    await store.createMissing({ plan: '# PLAN.md\n', todo: '- [ ] TC-001 A\n' });
    const result = await loop.run({ prompt: 'go', session, mode: 'plan-act', maxSteps: 1 });
    expect(result).toMatchObject({ stopReason: 'max_steps_exhausted', steps: 1 });
    expect(await readFile(store.todoPath, 'utf8')).toBe('- [ ] TC-001 A\n');
  });

  it('plan-act counts planning toward max steps', async () => {
    const { loop, provider, session, store } = planSetup({
      turns: [{ text: planReply('TC-001 A') }, { text: 'never asked' }],
    });
    const result = await loop.run({ prompt: 'go', session, mode: 'plan-act', maxSteps: 1 });
    expect(result).toMatchObject({ stopReason: 'max_steps_exhausted', steps: 1, maxSteps: 1 });
    expect(result.text.endsWith('Next TODO: TC-001 A')).toBe(true);
    expect(provider.requests).toHaveLength(1);
    expect((await store.read())?.next?.id).toBe('TC-001');
  });

  it('plan-act blocks tool calls in the plan phase and answers every call', async () => {
    const { loop, session, store, context } = planSetup({
      turns: [{ tool_calls: [{ name: 'note', arguments: { text: 'a' } }, { name: 'fail' }] }],
    });
    const result = await loop.run({ prompt: 'go', session, mode: 'plan-act' });
    expect(result).toMatchObject({ stopReason: 'tool_policy_blocked', steps: 1 });
    expect(await store.read()).toBeUndefined();
    expectEveryCallAnswered(context.messages);
  });

  it('plan-act resumes at the next open TODO and stops after it when no step is left', async () => {
    const { loop, provider, session, store } = planSetup({
      turns: [{ text: 'Done.\nPLAN_STEP_STATUS: completed' }],
    });
    await store.createMissing({
      plan: '# PLAN.md\n',
      todo: '- [x] TC-001 A\n- [ ] TC-002 B\n- [ ] TC-003 C\n',
    });
    const result = await loop.run({ prompt: 'go on', session, mode: 'plan-act', maxSteps: 1 });
    expect(result).toMatchObject({ stopReason: 'final', steps: 1, plan: '# PLAN.md\n' });
    expect(provider.requests[0]?.toolChoice).toBe('auto');
    expect(lastUserText(provider.requests[0])).toContain('Current TODO: TC-002 B');
    expect((await store.read())?.next?.id).toBe('TC-003');
  });

  it('plan-act with every TODO done answers at once: steps 0, no model call, no memory', async () => {
    const { loop, provider, memory, session, store } = planSetup({ turns: [{ text: 'never' }] });
    await store.createMissing({ plan: '# PLAN.md\n', todo: '- [x] TC-001 A\n' });
    const result = await loop.run({ prompt: 'go', session, mode: 'plan-act' });
    expect(result).toMatchObject({ stopReason: 'final', steps: 0, plan: '# PLAN.md\n' });
    expect(result.text.endsWith('All TODO items are complete.')).toBe(true);
    expect(provider.requests).toHaveLength(0);
    expect(memory.lines.get(session.key) ?? []).toEqual([]);
  });
});

describe('MainLoop skill tool narrowing', () => {
  class NarrowingBuilder extends ContextBuilder {
    override async build(input: BuildContextInput) {
      return { ...(await super.build(input)), allowedTools: ['NOTE'] };
    }
  }

  it('offers and runs only the tools the selected skill allows', async () => {
    const provider = new ScriptedProvider({
      turns: [{ tool_calls: [{ name: 'fail' }, { name: 'note', arguments: { text: 'x' } }] }],
    });
    const loop = new MainLoop({
      provider,
      tools: new ToolRegistry().register(noteTool).register(failTool),
      memory: new InMemoryMemory(),
      contextBuilder: new NarrowingBuilder(),
    });
    await loop.run({ prompt: 'go', session: testSession() });
    expect(provider.requests[0]?.tools.map((t) => t.name)).toEqual(['note']);
    const results = (provider.requests[1] as LLMRequest).messages.filter((m) => m.role === 'tool');
    expect(results[0]?.content).toContain('unknown tool: "fail"');
    expect(results[1]?.content).toBe('noted: x');
  });
});
