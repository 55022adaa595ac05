import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProviderError } from '../errors.js';
import type { LLMProvider, LLMRequest } from '../provider.js';
import { createMemoryStore } from '../store/memory-state-store.js';
import { EchoProvider } from '../testing/echo-provider.js';
import type { Script } from '../testing/script.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';
import { defineTool, type Tool } from '../tool.js';
import {
  endedFailures,
  noteTool,
  runAndCapture,
  unansweredCalls,
} from './__fixtures__/agent-harness.js';
import { type AgentOptions, createAgent } from './create-agent.js';

let workdir: string;
beforeEach(async () => {
  workdir = await mkdtemp(join(tmpdir(), 'tiny-claw-agent-loop-'));
});
afterEach(() => rm(workdir, { recursive: true, force: true }));

function setup(script: Script, tools: Tool[] = [noteTool], extra: Partial<AgentOptions> = {}) {
  const provider = new ScriptedProvider(script);
  const store = createMemoryStore();
  const agent = createAgent({ provider, tools, store, workdir, ...extra });
  return { provider, store, agent };
}

const threeTurns: Script = {
  turns: [
    { text: 'looking', tool_calls: [{ name: 'note', arguments: { text: 'one' } }] },
    { tool_calls: [{ name: 'note', arguments: { text: 'two' } }] },
    { text: 'all done' },
  ],
};

describe('the agent loop', () => {
  it('finishes with the final answer after a three-turn scripted run', async () => {
    const { agent, provider } = setup(threeTurns);
    const result = await agent.run('go');
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
    const { agent } = setup(threeTurns);
    const result = await agent.run('go', { maxSteps: 2 });
    expect(result).toMatchObject({
      stopReason: 'max_steps_exhausted',
      steps: 2,
      maxSteps: 2,
      text: '',
    });
  });

  it('records the prompt and answer in the session memory and reads them back next run', async () => {
    const { agent, store, provider } = setup({
      turns: [{ text: 'first answer' }, { text: 'second' }],
    });
    await agent.run('first prompt', { session: 'alpha' });
    const session = await agent.session('alpha');
    expect(await store.memory(session).readRecent()).toEqual([
      'last_prompt: first prompt',
      'last_response: first answer',
    ]);
    await agent.run('again', { session: 'alpha' });
    const messages = (provider.requests[1] as LLMRequest).messages;
    const memory = messages.filter((m) => m.content.includes('last_response: first answer'));
    // Past answers are user-role data, never system text.
    expect(memory.map((m) => m.role)).toEqual(['user']);
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'again' });
  });

  it('keeps named sessions apart', async () => {
    const { agent, provider } = setup({ turns: [{ text: 'secret answer' }, { text: 'other' }] });
    await agent.run('p1', { session: 'one' });
    await agent.run('p2', { session: 'two' });
    const second = JSON.stringify((provider.requests[1] as LLMRequest).messages);
    expect(second).not.toContain('secret answer');
  });

  it('sends no tools and tool_choice none in think mode and blocks a tool call', async () => {
    const { agent, provider } = setup({
      turns: [{ text: 'let me call', tool_calls: [{ name: 'note', arguments: { text: 'x' } }] }],
    });
    const { result, state } = await runAndCapture(agent, 'think', { mode: 'think' });
    expect(provider.requests[0]).toMatchObject({ tools: [], toolChoice: 'none' });
    expect(result).toMatchObject({
      stopReason: 'tool_policy_blocked',
      text: 'let me call',
      steps: 1,
    });
    expect(unansweredCalls(state.messages)).toEqual([]);
  });

  it('offers the tools with tool_choice auto in act mode', async () => {
    const { agent, provider } = setup({ turns: [{ text: 'ok' }] });
    await agent.run('act');
    expect(provider.requests[0]?.toolChoice).toBe('auto');
    expect(provider.requests[0]?.tools.map((t) => t.name)).toEqual(['note']);
  });

  it('answers every tool call exactly once, including unknown tools and bad arguments', async () => {
    const { agent, provider } = setup({
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
    const result = await agent.run('go');
    expect(result.stopReason).toBe('final');
    const messages = (provider.requests[1] as LLMRequest).messages;
    expect(unansweredCalls(messages)).toEqual([]);
    const tools = messages.filter((m) => m.role === 'tool');
    expect(tools[1]?.content).toContain('unknown tool: "nope"');
    expect(tools[2]?.content).toContain('Error:\nfailed to parse tool arguments: invalid JSON');
    expect(tools[3]?.content).toContain('Error:\nfailed to parse tool arguments: text:');
  });

  it('nudges after an empty turn and stops after three empty turns in a row', async () => {
    const { agent, provider } = setup({
      turns: [{ text: '' }, { text: '  ' }, { text: '' }, { text: 'never' }],
    });
    const result = await agent.run('go');
    expect(result).toMatchObject({
      stopReason: 'provider_error',
      stopDetail: 'empty_turns',
      steps: 3,
    });
    expect(result.text).toBe('');
    expect(result.error).toEqual({
      kind: 'empty_turns',
      message: expect.stringContaining('3 empty replies'),
      retryable: false,
    });
    expect(provider.requests[1]?.messages.at(-1)?.content).toContain('Your last reply was empty');
  });

  it('recovers when an empty turn is followed by a real answer', async () => {
    const { agent } = setup({ turns: [{ text: '' }, { text: 'here' }] });
    const result = await agent.run('go');
    expect(result).toMatchObject({ stopReason: 'final', steps: 2, text: 'here' });
    expect(result.stopDetail).toBeUndefined();
  });

  it('ends with provider_error and no memory line when the provider fails', async () => {
    const failing: LLMProvider = {
      name: 'broken',
      complete: async () => {
        throw new ProviderError('upstream said 500');
      },
    };
    const store = createMemoryStore();
    const agent = createAgent({ provider: failing, store, workdir });
    const result = await agent.run('go', { session: 'default' });
    expect(result).toMatchObject({ stopReason: 'provider_error', steps: 1, text: '' });
    expect(result.error).toEqual({
      kind: 'unknown',
      message: 'upstream said 500',
      retryable: false,
    });
    expect(await store.memory(await agent.session()).readRecent()).toEqual([]);
  });

  it('answers with the prompt through the echo provider', async () => {
    const agent = createAgent({ provider: new EchoProvider(), workdir });
    expect(await agent.run('hello')).toMatchObject({
      text: 'hello',
      stopReason: 'final',
      steps: 1,
      provider: 'echo',
      model: 'echo',
    });
  });

  it('sums usage over the steps of a run', async () => {
    const { agent } = setup({
      turns: [
        {
          tool_calls: [{ name: 'note', arguments: { text: 'a' } }],
          usage: { input_tokens: 10, output_tokens: 2 },
        },
        { text: 'ok', usage: { input_tokens: 15, output_tokens: 3 } },
      ],
    });
    const result = await agent.run('go');
    expect(result.usage).toEqual({ inputTokens: 25, outputTokens: 5, totalTokens: 30 });
  });

  it('retries once after aggressive compaction when the provider reports a context-length error, keeping the latest batch whole', async () => {
    const requests: LLMRequest[] = [];
    const seen = 'x'.repeat(5000);
    const unseen = 'y'.repeat(5000);
    const noteCall = (id: string, text: string) => ({
      message: {
        role: 'assistant' as const,
        content: '',
        toolCalls: [{ id, name: 'note', arguments: { text } }],
      },
      provider: 'picky',
    });
    const provider: LLMProvider = {
      name: 'picky',
      complete: async (req) => {
        requests.push(req);
        if (requests.length === 1) return noteCall('a', seen);
        if (requests.length === 2) return noteCall('b', unseen);
        if (requests.length === 3)
          throw new ProviderError('prompt is too long', { kind: 'context_length', status: 400 });
        return { message: { role: 'assistant', content: 'fits now' }, provider: 'picky' };
      },
    };
    const agent = createAgent({ provider, tools: [noteTool], workdir });
    const result = await agent.run('go');
    expect(result).toMatchObject({ stopReason: 'final', text: 'fits now', steps: 3 });
    const retried = requests[3]?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(retried[0]?.content.length).toBeLessThan(5000);
    expect(retried[1]?.content).toBe(`noted: ${unseen}`);
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
    const result = await createAgent({ provider, workdir }).run('go');
    expect(result.stopReason).toBe('provider_error');
    expect(calls).toBe(2);
  });

  it('compacts a huge tool output in the request only, keeping it whole in the run history', async () => {
    const huge = `START${'y'.repeat(300_000)}END`;
    const dump = defineTool({
      name: 'dump',
      description: 'dumps',
      parallelSafe: true,
      parameters: z.object({}),
      run: () => huge,
    });
    const { agent, provider } = setup(
      {
        turns: [
          { tool_calls: [{ name: 'dump' }] },
          { tool_calls: [{ name: 'dump' }] },
          { text: 'ok' },
        ],
      },
      [dump],
      { compaction: { maxChars: 120_000, retainLastMessages: 1 } },
    );
    const { state } = await runAndCapture(agent, 'go');
    const third = (provider.requests[2] as LLMRequest).messages.filter((m) => m.role === 'tool');
    expect(third[0]?.content).toContain('Earlier tool output removed');
    // The newest output is the latest batch: the model has not seen it, so it goes out whole
    // (its tool's own cap is what bounds it), even over budget.
    expect(third[1]?.content).toBe(huge);
    const second = (provider.requests[1] as LLMRequest).messages.filter((m) => m.role === 'tool');
    expect(second[0]?.content).toBe(huge);
    const kept = state.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(kept).toEqual([huge, huge]);
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
    const agent = createAgent({ provider, tools: [noteTool], workdir });
    expect((await agent.run('go')).costUsd).toBe(0.75);
  });

  it('prices calls that come without a cost from the prices option, and reports no total when one call is unpriced', async () => {
    const priced = setup(
      { turns: [{ text: 'ok', usage: { input_tokens: 1_000_000, output_tokens: 1_000_000 } }] },
      [],
      { prices: { scripted: { inputPerMTok: 1, outputPerMTok: 2 } } },
    );
    expect((await priced.agent.run('go')).costUsd).toBe(3);
    const unpriced = setup({
      turns: [{ text: 'ok', usage: { input_tokens: 10, output_tokens: 1 } }],
    });
    expect((await unpriced.agent.run('go')).costUsd).toBeUndefined();
  });

  it('does not run the third identical failing call and tells the model to change strategy', async () => {
    let runs = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'always fails',
      parameters: z.object({ n: z.number() }),
      run: () => {
        runs += 1;
        return { content: 'it broke', isError: true };
      },
    });
    const same = { name: 'flaky', arguments: { n: 1 } };
    const { agent, provider } = setup(
      {
        turns: [
          { tool_calls: [same] },
          { tool_calls: [same] },
          { tool_calls: [same] },
          { text: 'giving up' },
        ],
      },
      [flaky],
    );
    const { result, events } = await runAndCapture(agent, 'go');
    expect(result.stopReason).toBe('final');
    expect(runs).toBe(2);
    const last = (provider.requests[3] as LLMRequest).messages;
    expect(last.at(-2)).toMatchObject({ role: 'tool', isError: true });
    const ends = events.flatMap((event) => (event.type === 'tool.end' ? [event.blocked] : []));
    expect(ends).toEqual([false, false, true]);
    expect(endedFailures(events)[2]).toMatchObject({
      code: 'repeat_call_blocked',
      retryable: false,
      attempt: 3,
    });
    expect(last.at(-1)).toMatchObject({ role: 'user' });
    expect(last.at(-1)?.content).toContain("'flaky'");
    expect(unansweredCalls(last)).toEqual([]);
  });
});
