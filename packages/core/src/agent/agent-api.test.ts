import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '../errors.js';
import type { RunEvent } from '../observe/run-events.js';
import type { LLMProvider, LLMRequest } from '../provider.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';
import { defineTool } from '../tool.js';
import { endedFailures, gate, noteTool, runAndCapture } from './__fixtures__/agent-harness.js';
import { createAgent } from './create-agent.js';

let workdir: string;
beforeEach(async () => {
  workdir = await mkdtemp(join(tmpdir(), 'tiny-claw-agent-api-'));
});
afterEach(() => rm(workdir, { recursive: true, force: true }));

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  run: ({ a, b }) => String(a + b),
});

describe('createAgent', () => {
  it('refuses a missing provider, duplicate tool names and bad options with a ConfigurationError', () => {
    const provider = new ScriptedProvider({ turns: [] });
    expect(() => createAgent({} as never)).toThrow(/needs a provider/);
    expect(() => createAgent({ provider, tools: [add, add] })).toThrow(/two tools are named "add"/);
    expect(() => createAgent({ provider, tools: [{ name: 'x' } as never] })).toThrow(
      /tools\[0\] is not a tool/,
    );
    expect(() => createAgent({ provider, policy: { deny: 'bash' as never } })).toThrow(
      /policy.deny must be an array/,
    );
    expect(() => createAgent({ provider, maxSteps: 0 })).toThrow(ConfigurationError);
    expect(() => createAgent({ provider, mode: 'fly' as never })).toThrow(/mode must be one of/);
  });

  it('rejects an invalid step limit, mode or session per run', async () => {
    const agent = createAgent({ provider: new ScriptedProvider({ turns: [] }), workdir });
    await expect(agent.run('x', { maxSteps: 0 })).rejects.toThrow(
      'maxSteps must be an integer of at least 1',
    );
    await expect(agent.run('x', { mode: 'fly' as never })).rejects.toThrow(ConfigurationError);
    await expect(agent.run('x', { session: 'bad\u0007name' })).rejects.toThrow(ConfigurationError);
  });

  it('says clearly when the workdir does not exist', async () => {
    const agent = createAgent({
      provider: new ScriptedProvider({ turns: [] }),
      workdir: join(workdir, 'gone'),
    });
    await expect(agent.run('x')).rejects.toThrow(/does not exist: pass an existing directory/);
  });

  it('puts the instructions right after the built-in system prompt', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'ok' }] });
    await createAgent({ provider, workdir, instructions: 'Always answer in French.' }).run('hi');
    const messages = (provider.requests[0] as LLMRequest).messages;
    expect(messages[1]).toEqual({ role: 'system', content: 'Always answer in French.' });
  });
});

describe('the tool policy', () => {
  const bash = defineTool({
    name: 'bash',
    description: 'runs commands',
    parameters: z.object({ command: z.string() }),
    run: () => {
      throw new Error('a denied tool must never run');
    },
  });

  it('never offers a denied tool and refuses a call to it with a denial', async () => {
    const provider = new ScriptedProvider({
      turns: [{ tool_calls: [{ name: 'bash', arguments: { command: 'ls' } }] }, { text: 'ok' }],
    });
    const agent = createAgent({
      provider,
      tools: [add, bash],
      policy: { deny: ['bash'] },
      workdir,
    });
    expect(agent.tools).toEqual(['add']);
    const { events } = await runAndCapture(agent, 'go');
    expect(provider.requests[0]?.tools.map((t) => t.name)).toEqual(['add']);
    const end = events.find((e) => e.type === 'tool.end');
    expect(end).toMatchObject({ status: 'denied', call: { name: 'bash' } });
    expect(endedFailures(events)).toEqual([{ kind: 'denied', code: 'deny_list' }]);
    const answer = provider.requests[1]?.messages.find((m) => m.role === 'tool');
    expect(answer?.content).toContain('tool call denied by policy: bash is on the deny list');
    expect(answer?.isError).toBe(true);
    expect(answer?.metadata).toEqual({ tool_call_index: 0 });
  });

  it('shows and runs only the allow list, and deny wins over allow', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'ok' }] });
    const agent = createAgent({
      provider,
      tools: [add, bash, noteTool],
      policy: { allow: ['note', 'bash'], deny: ['bash'] },
      workdir,
    });
    expect(agent.tools).toEqual(['note']);
    await agent.run('go');
    expect(provider.requests[0]?.tools.map((t) => t.name)).toEqual(['note']);
  });

  it('names the refusing list as the denial code: a call outside the allow list is allow_list', async () => {
    const provider = new ScriptedProvider({
      turns: [{ tool_calls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }, { text: 'ok' }],
    });
    const agent = createAgent({
      provider,
      tools: [add, noteTool],
      policy: { allow: ['note'] },
      workdir,
    });
    const { events } = await runAndCapture(agent, 'go');
    expect(endedFailures(events)).toEqual([{ kind: 'denied', code: 'allow_list' }]);
  });
});

describe('defineTool', () => {
  it('refuses names providers reject and schemas that are not objects', () => {
    expect(() =>
      defineTool({ name: 'has space', description: '', parameters: z.object({}), run: () => '' }),
    ).toThrow(/tool name "has space" is invalid/);
    expect(() =>
      defineTool({ name: 'n', description: '', parameters: z.string() as never, run: () => '' }),
    ).toThrow(/parameters must be a z.object/);
  });

  it('validates the input before run: bad input never reaches the tool', async () => {
    const seen: unknown[] = [];
    const strict = defineTool({
      name: 'strict',
      description: 'needs a positive integer',
      parameters: z.object({ n: z.number().int().positive() }),
      run: ({ n }) => {
        seen.push(n);
        return `got ${n}`;
      },
    });
    const provider = new ScriptedProvider({
      turns: [
        {
          tool_calls: [
            { name: 'strict', arguments: { n: -1 } },
            { name: 'strict', arguments: { n: 2 } },
          ],
        },
        { text: 'ok' },
      ],
    });
    const { events } = await runAndCapture(
      createAgent({ provider, tools: [strict], workdir }),
      'go',
    );
    expect(seen).toEqual([2]);
    const results = provider.requests[1]?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(results[0]?.content).toContain('failed to parse tool arguments: n:');
    expect(results[0]?.isError).toBe(true);
    expect(endedFailures(events)[0]).toMatchObject({ kind: 'invalid_arguments' });
    expect(results[1]?.content).toBe('got 2');
  });

  it('turns a returned failure into guidance with the tool advice, and a throw into an error observation', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'finds a city',
      parameters: z.object({ city: z.string() }),
      run: ({ city }) => {
        if (city === 'boom') throw new Error('database down');
        return {
          content: `no such city: ${city}`,
          failure: { kind: 'not_found', advice: 'Try a real city.' },
        };
      },
    });
    const provider = new ScriptedProvider({
      turns: [
        {
          tool_calls: [
            { name: 'lookup', arguments: { city: 'Atlantis' } },
            { name: 'lookup', arguments: { city: 'boom' } },
          ],
        },
        { text: 'ok' },
      ],
    });
    const { result, events } = await runAndCapture(
      createAgent({ provider, tools: [lookup], workdir }),
      'go',
    );
    expect(result.stopReason).toBe('final');
    const [missing, thrown] = provider.requests[1]?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(missing?.content).toContain('Tool failed: the target does not exist');
    expect(missing?.content).toContain('Next step:\nTry a real city.');
    expect(missing?.isError).toBe(true);
    expect(thrown?.content).toContain('tool lookup failed unexpectedly: database down');
    expect(thrown?.isError).toBe(true);
    expect(endedFailures(events).map((failure) => failure?.kind)).toEqual([
      'not_found',
      'execution_error',
    ]);
  });
});

describe('the event stream', () => {
  const script = () =>
    new ScriptedProvider({
      turns: [
        { text: 'adding', tool_calls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
        { text: '5' },
      ],
    });

  it('yields run.start … step, model, tool.start/tool.end … run.finish in order, the result last', async () => {
    const agent = createAgent({ provider: script(), tools: [add], workdir });
    const events: RunEvent[] = [];
    for await (const event of agent.stream('what is 2 + 3?')) events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'run.start',
      'step.start',
      'model.start',
      'text.delta',
      'model.response',
      'tool.start',
      'tool.end',
      'step.start',
      'model.start',
      'text.delta',
      'model.response',
      'run.finish',
    ]);
    const finish = events.at(-1);
    expect(finish?.type === 'run.finish' && finish.result).toMatchObject({
      stopReason: 'final',
      text: '5',
    });
    const end = events.find((e) => e.type === 'tool.end');
    expect(end).toMatchObject({ status: 'completed', output: { content: '5', isError: false } });
  });

  it('cancels the run when the consumer stops reading early', async () => {
    const held = gate();
    let finished = false;
    const slow = defineTool({
      name: 'slow',
      description: 'waits',
      parameters: z.object({}),
      run: async (_input, ctx) => {
        await Promise.race([
          held.promise,
          new Promise((resolve) => ctx.signal.addEventListener('abort', resolve)),
        ]);
        finished = true;
        return ctx.signal.aborted ? { content: 'stopped', failure: { kind: 'cancelled' } } : 'done';
      },
    });
    const provider = new ScriptedProvider({
      turns: [{ tool_calls: [{ name: 'slow' }] }, { text: 'never' }],
    });
    const results: RunEvent[] = [];
    const agent = createAgent({
      provider,
      tools: [slow],
      workdir,
      onEvent: (e) => void results.push(e),
    });
    for await (const event of agent.stream('go')) {
      if (event.type === 'tool.start') break;
    }
    await expect.poll(() => results.find((e) => e.type === 'run.finish')).toBeTruthy();
    const finish = results.find((e) => e.type === 'run.finish');
    expect(finish?.type === 'run.finish' && finish.result.stopReason).toBe('cancelled');
    expect(finished).toBe(true);
    expect(provider.requests).toHaveLength(1);
  });

  it('throws from the iterator when the run cannot start', async () => {
    const agent = createAgent({ provider: script(), workdir });
    const consume = async () => {
      for await (const _event of agent.stream('x', { maxSteps: -1 })) {
        // nothing arrives
      }
    };
    await expect(consume()).rejects.toThrow(/maxSteps must be an integer/);
  });

  it('keeps running when a listener throws or rejects', async () => {
    const agent = createAgent({
      provider: script(),
      tools: [add],
      workdir,
      onEvent: (event) => {
        if (event.type === 'tool.start') throw new Error('bad listener');
        if (event.type === 'tool.end') return Promise.reject(new Error('bad async listener'));
      },
    });
    expect((await agent.run('go')).stopReason).toBe('final');
  });
});

describe('cancellation', () => {
  it('stops with cancelled when the signal fires during a model call', async () => {
    const controller = new AbortController();
    const hanging: LLMProvider = {
      name: 'slow',
      complete: (_req, opts) =>
        new Promise((_resolve, reject) => {
          opts?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
          controller.abort();
        }),
    };
    const result = await createAgent({ provider: hanging, workdir }).run('go', {
      signal: controller.signal,
    });
    expect(result).toMatchObject({ stopReason: 'cancelled', steps: 1 });
  });

  it('stops with cancelled after a tool batch interrupted by the signal, answering every call', async () => {
    const controller = new AbortController();
    let ran = 0;
    const writer = defineTool({
      name: 'writer',
      description: 'writes',
      parameters: z.object({}),
      run: () => {
        ran += 1;
        // Cancel while the first call of the batch is running.
        controller.abort();
        return 'wrote';
      },
    });
    const provider = new ScriptedProvider({
      turns: [{ tool_calls: [{ name: 'writer' }, { name: 'writer' }] }, { text: 'unreached' }],
    });
    const agent = createAgent({ provider, tools: [writer], workdir, signal: controller.signal });
    const { result, state } = await runAndCapture(agent, 'go');
    expect(result).toMatchObject({ stopReason: 'cancelled', steps: 1 });
    expect(provider.requests).toHaveLength(1);
    expect(ran).toBe(1);
    const answers = state.messages
      .filter((m) => m.role === 'tool')
      .map((m) => [m.isError, m.content]);
    expect(answers).toEqual([
      [false, 'wrote'],
      [true, 'tool call cancelled: the run was cancelled before this call finished'],
    ]);
  });
});

describe('the in-memory store', () => {
  it('writes no file anywhere: the workdir stays as it was', async () => {
    await writeFile(join(workdir, 'AGENTS.md'), 'Be brief.');
    const before = await readdir(workdir, { recursive: true });
    const provider = new ScriptedProvider({
      turns: [{ tool_calls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }, { text: '2' }],
    });
    const agent = createAgent({ provider, tools: [add], workdir });
    await agent.run('go', { mode: 'plan-act' });
    await agent.run('again');
    expect(await readdir(workdir, { recursive: true })).toEqual(before);
    expect(agent.store.usage).toBeUndefined();
  });

  it('accepts a resolved session and keeps its memory between runs of the same agent', async () => {
    const provider = new ScriptedProvider({ turns: [{ text: 'first' }, { text: 'second' }] });
    const agent = createAgent({ provider, workdir });
    const session = {
      key: 'chat-000000000000-room-1',
      source: 'chat' as const,
      externalId: 'room:1',
      displayName: 'room:1',
      workdir,
    };
    expect((await agent.run('one', { session })).sessionKey).toBe(session.key);
    await agent.run('two', { session });
    const user = provider.requests[1]?.messages.filter((m) => m.role === 'user') ?? [];
    expect(user.map((m) => m.content).join('\n')).toContain('last_response: first');
  });
});
