import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runAndCapture, unansweredCalls } from '../agent/__fixtures__/agent-harness.js';
import { createAgent } from '../agent/create-agent.js';
import {
  ApprovalError,
  type ApprovalGate,
  type ClaimedApproval,
} from '../approval/approval-gate.js';
import { ConfigurationError } from '../errors.js';
import type { RunEvent } from '../observe/run-events.js';
import type { LLMRequest } from '../provider.js';
import { createMemoryStore } from '../store/memory-state-store.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';
import { defineTool, type Tool } from '../tool.js';
import type { RunState } from './run-state.js';

let workdir: string;
beforeEach(async () => {
  workdir = await mkdtemp(join(tmpdir(), 'tiny-claw-resume-'));
});
afterEach(() => rm(workdir, { recursive: true, force: true }));

/**
 * An in-memory gate: pauses every `write` whose path starts with `.env`, keeps checkpoints in a
 * map, and lets exactly one decision claim each approval.
 */
function fakeGate() {
  const checkpoints = new Map<string, RunState>();
  const approvals = new Map<string, { callId: string; checkpointId: string; status: string }>();
  const completed: Array<[string, string]> = [];
  const claimedWith: string[] = [];
  let counter = 0;
  const gate: ApprovalGate = {
    middleware: async (ctx, next) => {
      if (ctx.approval?.token === ctx.call.id) return next(ctx);
      const path = String(ctx.call.arguments.path ?? '');
      if (ctx.call.name !== 'write' || !path.startsWith('.env')) return next(ctx);
      counter += 1;
      const approvalId = `ap_${String(counter).padStart(16, '0')}`;
      const checkpointId = `cp_${String(counter).padStart(16, '0')}`;
      approvals.set(approvalId, { callId: ctx.call.id, checkpointId, status: 'pending' });
      return {
        status: 'suspended',
        approvalId,
        checkpointId,
        output: { content: `needs approval: ${approvalId}`, isError: true },
      };
    },
    saveCheckpoint: async (id, state) => {
      checkpoints.set(id, JSON.parse(JSON.stringify(state)) as RunState);
    },
    claim: async (id, decision, options) => {
      const record = approvals.get(id);
      if (!record) throw new ApprovalError('not_found', `no approval ${id}`);
      if (record.status !== 'pending')
        throw new ApprovalError('already_handled', `${id} was already handled`);
      record.status = 'claimed';
      claimedWith.push(options?.state === undefined ? 'checkpoint' : 'given state');
      const state = options?.state ?? (checkpoints.get(record.checkpointId) as RunState);
      return {
        approvalId: id,
        checkpointId: record.checkpointId,
        decision: decision.decision,
        actor: decision.actor,
        ...(decision.reason === undefined ? {} : { reason: decision.reason }),
        state,
        callId: record.callId,
        ...(decision.decision === 'approve'
          ? { grant: { approvalId: id, token: record.callId } }
          : {}),
        waitMs: 5,
      } satisfies ClaimedApproval;
    },
    complete: async (claimed, status) => {
      completed.push([claimed.approvalId, status]);
      const record = approvals.get(claimed.approvalId);
      if (record) record.status = status;
    },
  };
  return { gate, checkpoints, completed, claimedWith };
}

function tools(log: string[]): Tool[] {
  return [
    defineTool({
      name: 'read',
      description: 'reads',
      parameters: z.object({ path: z.string() }),
      run: ({ path }) => {
        log.push(`read ${path}`);
        return `content of ${path}`;
      },
    }),
    defineTool({
      name: 'write',
      description: 'writes',
      parameters: z.object({ path: z.string(), content: z.string() }),
      run: ({ path }) => {
        log.push(`write ${path}`);
        return `wrote ${path}`;
      },
    }),
  ];
}

const turn = (calls: Array<[string, Record<string, unknown>]>, text = '') => ({
  text,
  tool_calls: calls.map(([name, args]) => ({ name, arguments: args })),
});

describe('resuming a paused run', () => {
  it('runs the approved call, then the rest of the turn, all answers in the model order, then goes on', async () => {
    const log: string[] = [];
    const { gate, completed } = fakeGate();
    const provider = new ScriptedProvider({
      turns: [
        turn([
          ['read', { path: 'a.txt' }],
          ['write', { path: '.env', content: 'X=1' }],
          ['read', { path: 'b.txt' }],
        ]),
        { text: 'all done' },
      ],
    });
    const store = createMemoryStore();
    const agent = createAgent({ provider, tools: tools(log), approvals: gate, store, workdir });
    const paused = await agent.run('set up the env', { session: 'default' });
    expect(paused).toMatchObject({ stopReason: 'approval_required', steps: 1 });
    expect(log).toEqual(['read a.txt']);

    const events: RunEvent[] = [];
    const resumed = await agent.resume(paused.approvalId as string, {
      decision: 'approve',
      actor: 'cli:alice',
      onEvent: (event) => void events.push(event),
    });
    expect(resumed).toMatchObject({ stopReason: 'final', text: 'all done', steps: 2 });
    expect(resumed.runId).not.toBe(paused.runId);
    expect(log).toEqual(['read a.txt', 'write .env', 'read b.txt']);
    expect(completed).toEqual([[paused.approvalId, 'consumed']]);

    const history = (provider.requests[1] as LLMRequest).messages;
    expect(unansweredCalls(history)).toEqual([]);
    expect(history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'content of a.txt',
      'wrote .env',
      'content of b.txt',
    ]);
    expect(events.slice(0, 2).map((e) => e.type)).toEqual(['run.start', 'approval.resumed']);
    expect(events[0]).toMatchObject({ caller: 'approval_resume' });
    expect(events[1]).toMatchObject({ decision: 'approve', actor: 'cli:alice', waitMs: 5 });
    expect(await store.memory(await agent.session()).readRecent(2)).toEqual([
      'last_prompt: set up the env',
      'last_response: all done',
    ]);
  });

  it('answers a rejected call with who rejected it and why, never runs it, and goes on', async () => {
    const log: string[] = [];
    const { gate, completed } = fakeGate();
    const provider = new ScriptedProvider({
      turns: [turn([['write', { path: '.env.local', content: 'X=1' }]]), { text: 'understood' }],
    });
    const agent = createAgent({ provider, tools: tools(log), approvals: gate, workdir });
    const paused = await agent.run('go', { session: 'default' });
    const resumed = await agent.resume(paused.approvalId as string, {
      decision: 'reject',
      actor: 'cli:bob',
      reason: 'not on a Friday',
    });
    expect(resumed).toMatchObject({ stopReason: 'final', text: 'understood' });
    expect(log).toEqual([]);
    expect(completed).toEqual([[paused.approvalId, 'rejected']]);
    const answer = provider.requests[1]?.messages.find((m) => m.role === 'tool');
    expect(answer?.content).toBe(
      'rejected by cli:bob: not on a Friday. The tool call was not executed.',
    );
    expect(answer?.isError).toBe(true);
    expect(answer?.metadata).toEqual({ tool_call_index: 0 });
    expect(JSON.stringify(answer)).not.toContain(paused.approvalId as string);
  });

  it('keeps the approval id out of the session memory when the checkpoint holds no waiting call', async () => {
    const { gate, checkpoints } = fakeGate();
    const store = createMemoryStore();
    const provider = new ScriptedProvider({
      turns: [turn([['write', { path: '.env', content: 'X=1' }]])],
    });
    const agent = createAgent({ provider, tools: tools([]), approvals: gate, store, workdir });
    const paused = await agent.run('go', { session: 'default' });
    for (const state of checkpoints.values()) delete state.batch;
    const resumed = await agent.resume(paused.approvalId as string, {
      decision: 'approve',
      actor: 'cli:alice',
    });
    expect(resumed.stopReason).toBe('approval_resume_failed');
    expect(resumed.text).toContain(paused.approvalId as string);
    const lines = await store.memory(await agent.session()).readRecent(2);
    expect(lines).toEqual([
      'last_prompt: go',
      'last_response: The approved call could not be resumed: its checkpoint holds no waiting tool call. Nothing was executed.',
    ]);
  });

  it('pauses again on a second risky call of the same turn, and answers every call after both decisions', async () => {
    const log: string[] = [];
    const { gate } = fakeGate();
    const provider = new ScriptedProvider({
      turns: [
        turn([
          ['write', { path: '.env', content: 'A=1' }],
          ['read', { path: 'a.txt' }],
          ['write', { path: '.env.prod', content: 'B=2' }],
        ]),
        { text: 'done' },
      ],
    });
    const agent = createAgent({ provider, tools: tools(log), approvals: gate, workdir });
    const first = await agent.run('go');
    const second = await agent.resume(first.approvalId as string, {
      decision: 'approve',
      actor: 'cli:a',
    });
    expect(second).toMatchObject({ stopReason: 'approval_required' });
    expect(second.approvalId).not.toBe(first.approvalId);
    expect(log).toEqual(['write .env', 'read a.txt']);
    const { result, state } = await resumeAndCapture(agent, second.approvalId as string);
    expect(result).toMatchObject({ stopReason: 'final', text: 'done' });
    expect(log).toEqual(['write .env', 'read a.txt', 'write .env.prod']);
    expect(unansweredCalls(state.messages)).toEqual([]);
    expect(state.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'wrote .env',
      'content of a.txt',
      'wrote .env.prod',
    ]);
  });

  it("carries the tools' per-run state across the pause, under the resumed run's id", async () => {
    const seen: Array<[string, unknown]> = [];
    const state = new Map<string, unknown>();
    const read = defineTool({
      name: 'read',
      description: 'reads',
      parameters: z.object({ path: z.string() }),
      run: (_input, ctx) => {
        state.set(ctx.runId ?? '', { read: ['a.txt'] });
        return 'content';
      },
    });
    const remembering: Tool = {
      ...read,
      carry: {
        key: 'files-read',
        save: (runId) => state.get(runId),
        restore: (runId, data) => {
          seen.push([runId, data]);
        },
      },
    };
    const { gate } = fakeGate();
    const provider = new ScriptedProvider({
      turns: [
        turn([['read', { path: 'a.txt' }]]),
        turn([['write', { path: '.env', content: '' }]]),
        { text: 'ok' },
      ],
    });
    const agent = createAgent({
      provider,
      tools: [remembering, ...tools([]).slice(1)],
      approvals: gate,
      workdir,
    });
    const paused = await agent.run('go', { session: 'default' });
    const resumed = await agent.resume(paused.approvalId as string, {
      decision: 'approve',
      actor: 'cli:a',
    });
    expect(seen).toEqual([[resumed.runId, { read: ['a.txt'] }]]);
  });

  it('refuses to resume without a gate, and passes a refused claim on untouched', async () => {
    const plain = createAgent({ provider: new ScriptedProvider({ turns: [] }), workdir });
    await expect(
      plain.resume('ap_0000000000000001', { decision: 'approve', actor: 'cli:a' }),
    ).rejects.toThrow(ConfigurationError);
    const { gate } = fakeGate();
    const agent = createAgent({
      provider: new ScriptedProvider({ turns: [] }),
      approvals: gate,
      workdir,
    });
    await expect(
      agent.resume('ap_unknown_00000000', { decision: 'approve', actor: 'cli:a' }),
    ).rejects.toThrow(ApprovalError);
    await expect(
      agent.resume('ap_x', { decision: 'maybe' as never, actor: 'cli:a' }),
    ).rejects.toThrow(/decision must be 'approve' or 'reject'/);
  });

  it('lets the same decision take effect once: a second resume of one approval is refused', async () => {
    const log: string[] = [];
    const { gate } = fakeGate();
    const provider = new ScriptedProvider({
      turns: [turn([['write', { path: '.env', content: 'X' }]]), { text: 'ok' }],
    });
    const agent = createAgent({ provider, tools: tools(log), approvals: gate, workdir });
    const paused = await agent.run('go', { session: 'default' });
    await agent.resume(paused.approvalId as string, { decision: 'approve', actor: 'cli:a' });
    await expect(
      agent.resume(paused.approvalId as string, { decision: 'approve', actor: 'cli:a' }),
    ).rejects.toThrow(/already handled/);
    expect(log).toEqual(['write .env']);
  });
});

describe('resuming from a run state and decisions', () => {
  it('continues the paused run from its state read back as JSON: the approved call runs once, the turn and the loop go on', async () => {
    const log: string[] = [];
    const { gate, completed, claimedWith } = fakeGate();
    const provider = new ScriptedProvider({
      turns: [
        turn([
          ['read', { path: 'a.txt' }],
          ['write', { path: '.env', content: 'X=1' }],
          ['read', { path: 'b.txt' }],
        ]),
        { text: 'all done' },
      ],
    });
    const agent = createAgent({ provider, tools: tools(log), approvals: gate, workdir });
    const paused = await agent.run('set up the env', { session: 'default' });
    expect(paused.stopReason).toBe('approval_required');
    const stored = JSON.stringify(paused.state);
    expect(JSON.parse(stored)).toMatchObject({ schemaVersion: 2 });

    const resumed = await agent.resume(JSON.parse(stored) as RunState, [
      { id: paused.approvalId as string, approve: true },
    ]);
    expect(resumed).toMatchObject({ stopReason: 'final', text: 'all done', steps: 2 });
    expect(resumed.state).toBeUndefined();
    expect(log).toEqual(['read a.txt', 'write .env', 'read b.txt']);
    expect(claimedWith).toEqual(['given state']);
    expect(completed).toEqual([[paused.approvalId, 'consumed']]);
    const history = (provider.requests[1] as LLMRequest).messages;
    expect(unansweredCalls(history)).toEqual([]);
    expect(history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'content of a.txt',
      'wrote .env',
      'content of b.txt',
    ]);
    await expect(
      agent.resume(JSON.parse(stored) as RunState, [
        { id: paused.approvalId as string, approve: true },
      ]),
    ).rejects.toThrow(/already handled/);
    expect(log.filter((line) => line === 'write .env')).toHaveLength(1);
  });

  it('tells the model who rejected the call and why, and records the default actor', async () => {
    const log: string[] = [];
    const { gate, completed } = fakeGate();
    const provider = new ScriptedProvider({
      turns: [turn([['write', { path: '.env', content: 'X' }]]), { text: 'fine, skipped' }],
    });
    const agent = createAgent({ provider, tools: tools(log), approvals: gate, workdir });
    const paused = await agent.run('go', { session: 'default' });
    const resumed = await agent.resume(paused.state as RunState, [
      { id: paused.approvalId as string, approve: false, reason: 'not today' },
    ]);
    expect(resumed.text).toBe('fine, skipped');
    expect(log).toEqual([]);
    expect(completed).toEqual([[paused.approvalId, 'rejected']]);
    const answer = (provider.requests[1] as LLMRequest).messages.at(-1);
    expect(answer?.content).toBe('rejected by api: not today. The tool call was not executed.');
  });

  it.each([
    ['no decisions', []],
    ['a decision without approve', [{ id: 'ap_x' }]],
    ['a decision that is not an object', ['ap_x']],
    ['an empty actor', [{ id: 'ap_x', approve: true, actor: ' ' }]],
  ])('refuses %s before claiming anything', async (_name, decisions) => {
    const { gate, claimedWith } = fakeGate();
    const provider = new ScriptedProvider({
      turns: [turn([['write', { path: '.env', content: 'X' }]])],
    });
    const agent = createAgent({ provider, tools: tools([]), approvals: gate, workdir });
    const paused = await agent.run('go', { session: 'default' });
    await expect(agent.resume(paused.state as RunState, decisions as never)).rejects.toThrow(
      ConfigurationError,
    );
    expect(claimedWith).toEqual([]);
  });

  it('refuses a decision on an approval the state does not wait on, naming the one it does, before claiming', async () => {
    const { gate, claimedWith } = fakeGate();
    const provider = new ScriptedProvider({
      turns: [turn([['write', { path: '.env', content: 'X' }]])],
    });
    const agent = createAgent({ provider, tools: tools([]), approvals: gate, workdir });
    const paused = await agent.run('go', { session: 'default' });
    const refused = await agent
      .resume(paused.state as RunState, [{ id: 'ap_9999999999999999', approve: true }])
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApprovalError);
    expect((refused as ApprovalError).refusal).toBe('not_found');
    expect((refused as Error).message).toContain(paused.approvalId as string);
    expect(claimedWith).toEqual([]);
  });

  it('refuses what is not a run state, saying what to pass', async () => {
    const { gate } = fakeGate();
    const agent = createAgent({
      provider: new ScriptedProvider({ turns: [] }),
      approvals: gate,
      workdir,
    });
    for (const bad of [{}, { schemaVersion: 3 }, null]) {
      await expect(agent.resume(bad as never, [{ id: 'ap_x', approve: true }])).rejects.toThrow(
        /the run state cannot be resumed: .*Pass RunResult\.state of a paused run/,
      );
    }
  });
});

async function resumeAndCapture(agent: ReturnType<typeof createAgent>, approvalId: string) {
  const events: RunEvent[] = [];
  const result = await agent.resume(approvalId, {
    decision: 'approve',
    actor: 'cli:a',
    onEvent: (event) => void events.push(event),
  });
  const finish = events.find((e) => e.type === 'run.finish' && e.runId === result.runId);
  if (finish?.type !== 'run.finish') throw new Error('no run.finish');
  return { result, state: finish.state };
}

// runAndCapture is used by the plan-act test below.
describe('resuming a plan-act run', () => {
  it('finds the TODO it paused in and checks it off after the decision', async () => {
    const log: string[] = [];
    const { gate } = fakeGate();
    const provider = new ScriptedProvider({
      turns: [
        {
          text: '<PLAN_MD># PLAN.md\n\nEnv.</PLAN_MD><TODO_MD>- [ ] TC-001 Write the env</TODO_MD>',
        },
        turn([['write', { path: '.env', content: 'X=1' }]]),
        { text: 'Written.\nPLAN_STEP_STATUS: completed' },
      ],
    });
    const store = createMemoryStore();
    const agent = createAgent({ provider, tools: tools(log), approvals: gate, store, workdir });
    const { result: paused } = await runAndCapture(agent, 'configure', {
      mode: 'plan-act',
      session: 'default',
    });
    expect(paused).toMatchObject({ stopReason: 'approval_required', steps: 2 });
    const resumed = await agent.resume(paused.approvalId as string, {
      decision: 'approve',
      actor: 'cli:a',
    });
    expect(resumed).toMatchObject({ stopReason: 'final', mode: 'plan-act', steps: 3 });
    const plan = await store.plans(await agent.session()).read();
    expect(plan?.todo).toContain('- [x] TC-001 Write the env');
  });
});
