import { getEventListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type Agent,
  createAgent,
  createMemoryStore,
  defineTool,
  type LLMProvider,
  ProviderError,
  type RunEvent,
  type RunResult,
  runResultSchema,
  type SessionRef,
  type StateStore,
  type SubagentHost,
} from '../index.js';
import { ScriptedProvider } from '../testing/index.js';

// The garbage collector, without a node flag: the flag is set at run time and `gc` read from a
// fresh context, which sees it.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let workdir: string;
beforeEach(async () => {
  workdir = await mkdtemp(join(tmpdir(), 'tiny-claw-run-defaults-'));
});
afterEach(() => rm(workdir, { recursive: true, force: true }));

/** A provider that answers only when the run is cancelled (then it fails with the reason). */
const waitsForCancel: LLMProvider = {
  name: 'waits',
  complete: (_request, { signal } = {}) =>
    new Promise((_resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    }),
};

/** Collect garbage again and again until `pending` settles: a signal held weakly is lost. */
async function settleUnderGc<T>(pending: Promise<T>): Promise<T> {
  let settled = false;
  const done = pending.finally(() => {
    settled = true;
  });
  while (!settled) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return done;
}

async function streamResult(events: AsyncIterable<RunEvent>): Promise<RunResult | undefined> {
  let last: RunResult | undefined;
  for await (const event of events) {
    if (event.type === 'run.finish' && event.parentRunId === undefined) last = event.result;
  }
  return last;
}

describe('a caller signal is held for the whole run', () => {
  it.each([
    ['agent.run', (agent: Agent) => agent.run('wait', { signal: AbortSignal.timeout(30) })],
    [
      'agent.stream',
      (agent: Agent) => streamResult(agent.stream('wait', { signal: AbortSignal.timeout(30) })),
    ],
  ])(
    '%s with AbortSignal.timeout ends cancelled even when garbage is collected while it waits',
    async (_name, start) => {
      const agent = createAgent({ provider: waitsForCancel, workdir });
      const result = await settleUnderGc(start(agent));
      expect(result?.stopReason).toBe('cancelled');
    },
  );

  it('an agent-level AbortSignal.timeout cancels a run even when garbage is collected', async () => {
    const agent = createAgent({
      provider: waitsForCancel,
      workdir,
      signal: AbortSignal.timeout(30),
    });
    const result = await settleUnderGc(agent.run('wait'));
    expect(result.stopReason).toBe('cancelled');
  });

  it.each([
    ['run', (agent: Agent, signal: AbortSignal) => agent.run('hi', { signal })],
    ['stream', (agent: Agent, signal: AbortSignal) => streamResult(agent.stream('hi', { signal }))],
  ])('leaves no listener on a long-lived signal after many runs (%s)', async (_name, start) => {
    const agentWide = new AbortController();
    const perRun = new AbortController();
    const turns = Array.from({ length: 25 }, (_, i) => ({ text: `answer ${i}` }));
    const agent = createAgent({
      provider: new ScriptedProvider({ turns }),
      workdir,
      signal: agentWide.signal,
    });
    for (let i = 0; i < 25; i += 1) {
      expect((await start(agent, perRun.signal))?.stopReason).toBe('final');
    }
    expect(getEventListeners(agentWide.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(perRun.signal, 'abort')).toHaveLength(0);
  });

  it('a signal aborted before the run starts cancels it at once', async () => {
    const agent = createAgent({ provider: waitsForCancel, workdir });
    const result = await agent.run('wait', { signal: AbortSignal.abort() });
    expect(result.stopReason).toBe('cancelled');
  });
});

function childOf(parent: SessionRef | undefined): SessionRef {
  if (!parent) throw new Error('a tool call of an agent run always has a session');
  return { ...parent, key: `${parent.key}-child`, source: 'subagent' };
}

/** A memory store that records every session it is asked to keep something for. */
function watchedStore(): { store: StateStore; touched: string[] } {
  const inner = createMemoryStore();
  const touched: string[] = [];
  const store: StateStore = {
    ...inner,
    saveSession: (session) => {
      touched.push(`session ${session.key}`);
      return inner.saveSession(session);
    },
    memory: (session) => {
      touched.push(`memory ${session.key}`);
      return inner.memory(session);
    },
    plans: (session) => {
      touched.push(`plans ${session.key}`);
      return inner.plans(session);
    },
  };
  return { store, touched };
}

function sentText(provider: ScriptedProvider, request: number): string {
  return (provider.requests[request]?.messages ?? []).map((m) => m.content).join('\n');
}

describe('a run without a session keeps nothing', () => {
  it('does not see an earlier run without a session, and leaves the store untouched', async () => {
    const provider = new ScriptedProvider({
      turns: [{ text: 'the secret is 42' }, { text: 'no idea' }],
    });
    const { store, touched } = watchedStore();
    const agent = createAgent({ provider, store, workdir });
    const first = await agent.run('alice: remember 42');
    const second = await agent.run('bob: what did alice say?');
    expect([first.text, second.text]).toEqual(['the secret is 42', 'no idea']);
    expect(sentText(provider, 1)).not.toMatch(/alice: remember 42|the secret is 42/);
    expect(first.sessionKey).not.toBe(second.sessionKey);
    expect(touched).toEqual([]);
  });

  it('carries memory within a named session only', async () => {
    const provider = new ScriptedProvider({
      turns: [{ text: 'noted 42' }, { text: 'it was 42' }, { text: 'no idea' }],
    });
    const agent = createAgent({ provider, workdir });
    await agent.run('remember 42', { session: 'alice' });
    await agent.run('what was it?', { session: 'alice' });
    await agent.run('what was it?', { session: 'bob' });
    expect(sentText(provider, 1)).toContain('remember 42');
    expect(sentText(provider, 2)).not.toContain('remember 42');
  });

  it.each([
    ['plan', 'PLAN.md'],
    ['plan-act', 'PLAN.md'],
  ] as const)(
    'plans inside the run in mode %s, leaving no plan in the store',
    async (mode, heading) => {
      const provider = new ScriptedProvider({
        turns: [
          { text: `<PLAN_MD># ${heading}\n\nShip.</PLAN_MD><TODO_MD>- [ ] TC-001 Ship</TODO_MD>` },
          { text: 'Shipped.\nPLAN_STEP_STATUS: completed' },
        ],
      });
      const { store, touched } = watchedStore();
      const agent = createAgent({ provider, store, workdir, mode });
      const result = await agent.run('ship it');
      expect(result.stopReason).toBe('final');
      expect(result.plan).toContain(heading);
      expect(touched).toEqual([]);
    },
  );

  it('lends a child run no memory when the calling run has no session', async () => {
    let host: SubagentHost | undefined;
    const delegate = defineTool({
      name: 'delegate',
      description: 'asks a child',
      parameters: z.object({ task: z.string() }),
      run: async ({ task }, ctx) => {
        host = ctx.subagents;
        const session = childOf(ctx.session);
        const child = await ctx.subagents?.run({
          prompt: task,
          instructions: '',
          session,
          tools: [],
          maxSteps: 2,
        });
        await ctx.subagents?.memory(session).append([{ key: 'child', value: 'kept?' }]);
        return child?.text ?? '';
      },
    });
    const provider = new ScriptedProvider({
      turns: [
        { tool_calls: [{ id: 'd1', name: 'delegate', arguments: { task: 'look' } }] },
        { text: 'child report' },
        { text: 'done' },
      ],
    });
    const { store, touched } = watchedStore();
    const agent = createAgent({ provider, store, workdir, tools: [delegate] });
    expect((await agent.run('go')).text).toBe('done');
    expect(host).toBeDefined();
    expect(touched).toEqual([]);
  });
});

describe('child run events carry the calling run id', () => {
  function explorerAgent() {
    const delegate = defineTool({
      name: 'delegate',
      description: 'asks a child',
      parameters: z.object({ task: z.string() }),
      run: async ({ task }, ctx) => {
        const session = childOf(ctx.session);
        const child = await ctx.subagents?.run({
          prompt: task,
          instructions: '',
          session,
          tools: [],
          maxSteps: 2,
        });
        return child?.text ?? '';
      },
    });
    const provider = new ScriptedProvider({
      turns: [
        { tool_calls: [{ id: 'd1', name: 'delegate', arguments: { task: 'look' } }] },
        { text: 'child report' },
        { text: 'parent answer' },
      ],
    });
    return createAgent({ provider, workdir, tools: [delegate] });
  }

  it('marks every child event with parentRunId and none of the run’s own', async () => {
    const events: RunEvent[] = [];
    for await (const event of explorerAgent().stream('go')) events.push(event);
    const parentId = events[0]?.runId;
    const child = events.filter((event) => event.runId !== parentId);
    expect(child.map((event) => event.type)).toEqual(
      expect.arrayContaining(['run.start', 'text.delta', 'run.finish']),
    );
    expect(child.every((event) => event.parentRunId === parentId)).toBe(true);
    expect(events.filter((e) => e.runId === parentId).some((e) => 'parentRunId' in e)).toBe(false);
  });

  it('agent.stream ends on the run’s own run.finish, after the child’s', async () => {
    const finishes: Array<{ text: string; nested: boolean }> = [];
    let last: RunEvent | undefined;
    for await (const event of explorerAgent().stream('go')) {
      last = event;
      if (event.type === 'run.finish') {
        finishes.push({ text: event.result.text, nested: event.parentRunId !== undefined });
      }
    }
    expect(finishes).toEqual([
      { text: 'child report', nested: true },
      { text: 'parent answer', nested: false },
    ]);
    expect(last?.type === 'run.finish' && last.parentRunId === undefined).toBe(true);
  });
});

describe('a failed run reports its error apart from the model text', () => {
  it.each([
    [
      new ProviderError('rate limited', { kind: 'rate_limit', isRetryable: true }),
      'rate_limit',
      'rate limited',
      true,
    ],
    [new ProviderError('bad key', { kind: 'auth', status: 401 }), 'auth', 'bad key', false],
    [new TypeError('fetch failed'), 'unknown', 'TypeError: fetch failed', false],
  ] as const)('%s → error %s', async (thrown, kind, message, retryable) => {
    const provider: LLMProvider = {
      name: 'broken',
      complete: async () => {
        throw thrown;
      },
    };
    const result = await createAgent({ provider, workdir }).run('go');
    expect(result).toMatchObject({ stopReason: 'provider_error', text: '' });
    expect(result.error).toEqual({ kind, message, retryable });
    expect(runResultSchema.parse(JSON.parse(JSON.stringify(result))).error).toEqual(result.error);
  });

  it('keeps what the model said before the failure as the text', async () => {
    const note = defineTool({
      name: 'note',
      description: 'notes',
      parameters: z.object({}),
      run: () => 'ok',
    });
    let calls = 0;
    const provider: LLMProvider = {
      name: 'flaky',
      complete: async () => {
        calls += 1;
        if (calls > 1)
          throw new ProviderError('server down', { kind: 'server', isRetryable: true });
        return {
          message: {
            role: 'assistant',
            content: 'Let me check.',
            toolCalls: [{ id: 'n1', name: 'note', arguments: {} }],
          },
          provider: 'flaky',
        };
      },
    };
    const result = await createAgent({ provider, workdir, tools: [note] }).run('go');
    expect(result).toMatchObject({
      stopReason: 'provider_error',
      text: 'Let me check.',
      error: { kind: 'server', message: 'server down', retryable: true },
    });
  });

  it('a final run has no error, and a result saved before the field existed still parses', () => {
    const older = {
      runId: 'r1',
      sessionKey: 'cli-1a2b3c4d5e6f-default',
      workdir: '/repo',
      text: 'Model provider error: rate limited',
      stopReason: 'provider_error',
      steps: 1,
      maxSteps: 20,
      mode: 'act',
      provider: 'openai',
      model: null,
      usage: null,
    };
    expect(runResultSchema.parse(older).error).toBeUndefined();
    expect(() =>
      runResultSchema.parse({
        ...older,
        error: { kind: 'weather', message: 'x', retryable: false },
      }),
    ).toThrow();
  });
});
