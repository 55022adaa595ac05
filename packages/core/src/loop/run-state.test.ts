import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noteTool, runAndCapture } from '../agent/__fixtures__/agent-harness.js';
import { createAgent } from '../agent/create-agent.js';
import { ScriptedProvider } from '../testing/scripted-provider.js';
import type { ToolMiddleware } from '../tool.js';
import { newRunState, runStateSchema } from './run-state.js';

let workdir: string;
beforeEach(async () => {
  workdir = await mkdtemp(join(tmpdir(), 'tiny-claw-run-state-'));
});
afterEach(() => rm(workdir, { recursive: true, force: true }));

/** Pauses every call whose text is `pause`, as an approval middleware would. */
const pauseOn: ToolMiddleware = async (ctx, next) =>
  ctx.call.arguments.text === 'pause'
    ? {
        status: 'suspended',
        approvalId: 'ap_1',
        checkpointId: 'cp_1',
        output: { content: 'waiting for a person', isError: true },
      }
    : next(ctx);

describe('the run state', () => {
  it('survives a JSON round trip through its schema, paused batch and counts included', async () => {
    const provider = new ScriptedProvider({
      turns: [
        {
          tool_calls: [{ name: 'note', arguments: { text: 'one' } }],
          usage: { input_tokens: 5, output_tokens: 1 },
        },
        {
          text: 'now the risky part',
          tool_calls: [
            { name: 'note', arguments: { text: 'before' } },
            { name: 'note', arguments: { text: 'pause' } },
            { name: 'note', arguments: { text: 'after' } },
          ],
        },
      ],
    });
    const agent = createAgent({ provider, tools: [noteTool], middleware: [pauseOn], workdir });
    const { result, state } = await runAndCapture(agent, 'go', { session: 'paused' });
    expect(result).toMatchObject({
      stopReason: 'approval_required',
      approvalId: 'ap_1',
      checkpointId: 'cp_1',
    });

    const copy = runStateSchema.parse(JSON.parse(JSON.stringify(state)));
    expect(copy).toEqual(state);
    expect(copy).toMatchObject({
      runId: result.runId,
      step: 2,
      mode: 'act',
      usage: { inputTokens: 5 },
    });
    // The paused turn stays out of the history until all its calls are answered.
    expect(copy.messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'now the risky part',
    });
    const batch = copy.batch?.calls ?? [];
    expect(batch.map((entry) => entry.call.arguments.text)).toEqual(['before', 'pause', 'after']);
    // The three calls are parallel-safe: the two that were not paused ran and are answered; the
    // paused one waits on its request.
    expect(batch.map((entry) => entry.status)).toEqual([
      'executed',
      'awaiting_approval',
      'executed',
    ]);
    expect(batch.map((entry) => entry.observation?.content)).toEqual([
      'noted: before',
      undefined,
      'noted: after',
    ]);
    expect(batch[1]?.approval).toMatchObject({ approvalId: 'ap_1', checkpointId: 'cp_1' });
    // The paused run's result carries the same state, for a resume from it.
    expect(result.state).toEqual(state);
  });

  it('reads a first-version state (a checkpoint written before calls had statuses) as the current one', () => {
    const read = { id: 'c1', name: 'note', arguments: { text: 'a' } };
    const write = { id: 'c2', name: 'note', arguments: { text: 'pause' } };
    const v1 = {
      schemaVersion: 1,
      runId: 'run_1',
      session: {
        key: 'cli-1a2b3c4d5e6f-default',
        source: 'cli',
        externalId: 'default',
        displayName: 'default',
        workdir,
      },
      prompt: 'go',
      mode: 'act',
      maxSteps: 20,
      step: 1,
      messages: [],
      tools: ['note'],
      lastText: '',
      emptyTurns: 0,
      failures: {},
      usage: null,
      costUsd: null,
      unpricedCall: false,
      model: null,
      pending: {
        step: 1,
        calls: [read, write],
        observations: [{ role: 'tool', content: 'noted: a', toolCallId: 'c1', name: 'note' }],
      },
    };
    const state = runStateSchema.parse(v1);
    expect(state.schemaVersion).toBe(2);
    expect('pending' in state).toBe(false);
    expect(state.batch).toEqual({
      step: 1,
      calls: [
        { call: read, index: 0, status: 'executed', observation: v1.pending.observations[0] },
        { call: write, index: 1, status: 'pending' },
      ],
    });
  });

  it('reads a tool result saved with its error flag in the metadata (before isError) as an error', () => {
    const failed = { id: 'c1', name: 'note', arguments: { text: 'a' } };
    const waiting = { id: 'c2', name: 'note', arguments: { text: 'b' } };
    const old = (id: string, isError: boolean) => ({
      role: 'tool',
      content: 'noted',
      toolCallId: id,
      name: 'note',
      metadata: { is_error: isError, error_type: 'not_found', tool_call_index: 0 },
    });
    const saved = {
      ...newRunState({
        runId: 'run_1',
        session: {
          key: 'cli-1a2b3c4d5e6f-default',
          source: 'cli',
          externalId: 'default',
          displayName: 'default',
          workdir,
        },
        prompt: 'go',
        mode: 'act',
        maxSteps: 20,
        model: null,
      }),
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', toolCalls: [failed] },
        old('c1', true),
        { role: 'assistant', content: '', toolCalls: [failed, waiting] },
      ],
      batch: {
        step: 2,
        calls: [
          { call: failed, index: 0, status: 'executed', observation: old('c1', false) },
          { call: waiting, index: 1, status: 'pending' },
        ],
      },
    };
    const state = runStateSchema.parse(JSON.parse(JSON.stringify(saved)));
    expect(state.messages[2]).toEqual({
      role: 'tool',
      content: 'noted',
      toolCallId: 'c1',
      name: 'note',
      isError: true,
      metadata: { error_type: 'not_found', tool_call_index: 0 },
    });
    expect(state.batch?.calls[0]?.observation).toMatchObject({ isError: false });
    expect(state.batch?.calls[0]?.observation?.metadata).not.toHaveProperty('is_error');
    // Read once, written back in the current shape, read again: the same state.
    expect(runStateSchema.parse(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it.each([
    ['an executed call without an observation', { status: 'executed' }],
    ['a waiting call without its request', { status: 'awaiting_approval' }],
    [
      'an approved call without a decision',
      { status: 'approved', approval: { approvalId: 'ap_1', checkpointId: 'cp_1', reasons: [] } },
    ],
    [
      'a rejected call whose decision approves',
      {
        status: 'rejected',
        approval: { approvalId: 'ap_1', checkpointId: 'cp_1', reasons: [] },
        decision: { approve: true, actor: 'cli:a' },
      },
    ],
  ])('refuses a batch with %s', (_name, entry) => {
    const state = {
      ...newRunState({
        runId: 'run_1',
        session: {
          key: 'cli-1a2b3c4d5e6f-default',
          source: 'cli',
          externalId: 'default',
          displayName: 'default',
          workdir,
        },
        prompt: 'go',
        mode: 'act',
        maxSteps: 20,
        model: null,
      }),
      batch: {
        step: 1,
        calls: [{ call: { id: 'c1', name: 'note', arguments: {} }, index: 0, ...entry }],
      },
    };
    expect(runStateSchema.safeParse(state).success).toBe(false);
  });

  it('refuses a state that is not one: wrong version, unsafe shape, a pending batch without calls', () => {
    const bad = [
      {},
      { schemaVersion: 2 },
      { schemaVersion: 1, runId: '', session: {}, messages: 'x' },
    ];
    for (const value of bad) expect(runStateSchema.safeParse(value).success).toBe(false);
  });
});
