import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProviderError } from '../errors.js';
import type { Message } from '../messages.js';
import type { Channel } from '../observe/channel.js';
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
  schema: z.object({ text: z.string() }),
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
        }),
    };
    const loop = new MainLoop({
      provider: hanging,
      tools: new ToolRegistry(),
      memory: new InMemoryMemory(),
    });
    const run = loop.run({ prompt: 'go', session: testSession(), signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
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
    const run = loop.run({ prompt: 'go', session: testSession(), signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    expect(await run).toMatchObject({ stopReason: 'cancelled', steps: 1 });
    expect(provider.requests).toHaveLength(1);
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

  it('rejects an invalid step limit and the plan modes it does not run', async () => {
    const { loop } = setup({ turns: [] });
    await expect(loop.run({ prompt: 'x', session: testSession(), maxSteps: 0 })).rejects.toThrow(
      'maxSteps must be an integer of at least 1',
    );
    await expect(loop.run({ prompt: 'x', session: testSession(), mode: 'plan' })).rejects.toThrow(
      /mode plan/,
    );
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
      schema: z.object({}),
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
      schema: z.object({ n: z.number() }),
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
