import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ApprovalError,
  ConfigurationError,
  createAgent,
  defineTool,
  StateError,
  type Tool,
} from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { createFileStore } from '@tiny-claw/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readApproval } from '../store/approval-queries.js';
import {
  bashCall,
  cliSessionOf,
  fakeAssess,
  gateHarness,
  pausedState,
} from './__fixtures__/approval-fixtures.js';
import { createApprovalGate } from './create-approval-gate.js';

let ws: TempWorkspace;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'a.txt': 'a\n' });
});

afterEach(async () => {
  await ws.cleanup();
});

describe('createApprovalGate', () => {
  it('refuses options without a policy or with a timeout that is not a positive number', () => {
    expect(() => createApprovalGate({} as never)).toThrow(ConfigurationError);
    expect(() => createApprovalGate({ assess: fakeAssess({}), timeoutSeconds: 0 })).toThrow(
      /positive number/,
    );
    expect(() =>
      createApprovalGate({ assess: fakeAssess({}), timeoutSeconds: Number.NaN }),
    ).toThrow(ConfigurationError);
  });

  it('refuses the options of earlier versions and a store without approvals, saying what to pass', () => {
    const legacy = (options: Record<string, unknown>) => () =>
      createApprovalGate({ assess: fakeAssess({}), ...options } as never);
    expect(legacy({ stateDir: '/tmp/state' })).toThrow(
      /no longer takes stateDir: pass store: createFileStore\(stateDir\) from @tiny-claw\/workspace/,
    );
    expect(legacy({ stores: {} })).toThrow(/takes store .* instead of stores/);
    expect(legacy({ store: { approvals: {} } })).toThrow(/approvals and runStates/);
  });

  it('keeps requests in memory without a state dir, and writes nothing to disk', async () => {
    const gate = createApprovalGate({ assess: fakeAssess({ bash: 'approval_required' }) });
    const session = cliSessionOf(ws.dir);
    const result = await gate.middleware(
      {
        call: bashCall('rm x'),
        workdir: ws.dir,
        session,
        signal: new AbortController().signal,
        visibleTools: [],
        metadata: {},
      },
      async () => ({ status: 'completed', output: { content: '', isError: false } }),
    );
    if (result.status !== 'suspended') throw new Error('expected a pause');
    await gate.saveCheckpoint(result.checkpointId, pausedState(session, [bashCall('rm x')]));
    expect(
      (await gate.claim(result.approvalId, { decision: 'approve', actor: 'me', session })).callId,
    ).toBe('call_1');
    expect(await readdir(ws.dir)).toEqual(['a.txt']);
  });

  it('writes a checkpoint under its id with the request it waits for, even from a fresh gate after a restart', async () => {
    const harness = await gateHarness('file');
    try {
      const session = cliSessionOf(ws.dir);
      const result = await harness.gate.middleware(
        {
          call: bashCall('rm x'),
          workdir: ws.dir,
          session,
          signal: new AbortController().signal,
          visibleTools: [],
          metadata: {},
        },
        async () => ({ status: 'completed', output: { content: '', isError: false } }),
      );
      if (result.status !== 'suspended') throw new Error('expected a pause');
      const restarted = createApprovalGate({
        store: createFileStore(harness.stateDir),
        assess: fakeAssess({}),
        clock: harness.clock.now,
      });
      await restarted.saveCheckpoint(result.checkpointId, pausedState(session, [bashCall('rm x')]));
      const checkpoint = await harness.stores.runStates.read(session.key, result.checkpointId);
      expect(checkpoint).toMatchObject({
        id: result.checkpointId,
        approvalId: result.approvalId,
        sessionKey: session.key,
      });
    } finally {
      await harness.cleanup();
    }
  });

  it('refuses a checkpoint no request refers to, and a malformed checkpoint id', async () => {
    const gate = createApprovalGate({ assess: fakeAssess({}) });
    const state = pausedState(cliSessionOf(ws.dir), [bashCall('ls')]);
    await expect(gate.saveCheckpoint('cp_AAAAAAAAAAAAAAAAAAAAAA', state)).rejects.toBeInstanceOf(
      StateError,
    );
    const error = await gate.saveCheckpoint('../x', state).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApprovalError);
    expect((error as ApprovalError).refusal).toBe('invalid_id');
  });

  it('leaves a request that is already final as it is when completed again', async () => {
    const harness = await gateHarness('memory');
    try {
      const session = cliSessionOf(ws.dir);
      const result = await harness.gate.middleware(
        {
          call: bashCall('rm x'),
          workdir: ws.dir,
          session,
          signal: new AbortController().signal,
          visibleTools: [],
          metadata: {},
        },
        async () => ({ status: 'completed', output: { content: '', isError: false } }),
      );
      if (result.status !== 'suspended') throw new Error('expected a pause');
      await harness.gate.saveCheckpoint(
        result.checkpointId,
        pausedState(session, [bashCall('rm x')]),
      );
      const claimed = await harness.gate.claim(result.approvalId, {
        decision: 'approve',
        actor: 'me',
        session,
      });
      await harness.gate.complete(claimed, 'consumed');
      await harness.gate.complete(claimed, 'rejected');
      expect((await harness.stores.approvals.read(session.key, result.approvalId))?.status).toBe(
        'consumed',
      );
    } finally {
      await harness.cleanup();
    }
  });
});

describe('an agent with the approval gate', () => {
  function shellTool(log: string[]): Tool {
    return defineTool({
      name: 'bash',
      description: 'runs a command',
      parameters: z.object({ command: z.string() }),
      run: ({ command }) => {
        log.push(command);
        return `ran ${command}`;
      },
    });
  }

  it('pauses the risky call, resumes it once after approval, and refuses a second approval', async () => {
    const harness = await gateHarness('file');
    try {
      const log: string[] = [];
      const stateDir = harness.stateDir;
      const provider = new ScriptedProvider({
        turns: [
          { text: '', tool_calls: [{ name: 'bash', arguments: { command: 'rm -rf build' } }] },
          { text: 'cleaned' },
        ],
      });
      const store = createFileStore(stateDir);
      const gate = createApprovalGate({
        store,
        assess: fakeAssess({ bash: 'approval_required' }),
      });
      const agent = createAgent({
        provider,
        tools: [shellTool(log)],
        approvals: gate,
        store,
        workdir: ws.dir,
      });
      const paused = await agent.run('clean up', { requestedBy: 'cli:alice' });
      expect(paused.stopReason).toBe('approval_required');
      expect(log).toEqual([]);
      const approvalId = paused.approvalId as string;
      expect(await readApproval(store, approvalId)).toMatchObject({
        status: 'pending',
        requestedBy: 'cli:alice',
      });
      const record = await readApproval(store, approvalId);
      const checkpoints = await readdir(
        join(stateDir, 'sessions', record?.sessionKey ?? '', 'checkpoints'),
      );
      expect(checkpoints).toEqual([`${record?.checkpointId}.json`]);

      const resumed = await agent.resume(approvalId, { decision: 'approve', actor: 'cli:bob' });
      expect(resumed).toMatchObject({ stopReason: 'final', text: 'cleaned' });
      expect(log).toEqual(['rm -rf build']);
      expect(await readApproval(store, approvalId)).toMatchObject({
        status: 'consumed',
        decidedBy: 'cli:bob',
      });

      const replay = await agent
        .resume(approvalId, { decision: 'approve', actor: 'cli:bob' })
        .catch((e: unknown) => e);
      expect(replay).toBeInstanceOf(ApprovalError);
      expect((replay as ApprovalError).refusal).toBe('already_handled');
      expect(log).toEqual(['rm -rf build']);
    } finally {
      await harness.cleanup();
    }
  });

  it('hands a rejection to the model and never runs the call', async () => {
    const log: string[] = [];
    const provider = new ScriptedProvider({
      turns: [
        { text: '', tool_calls: [{ name: 'bash', arguments: { command: 'rm -rf build' } }] },
        { text: 'ok, not cleaning' },
      ],
    });
    const gate = createApprovalGate({ assess: fakeAssess({ bash: 'approval_required' }) });
    const agent = createAgent({
      provider,
      tools: [shellTool(log)],
      approvals: gate,
      workdir: ws.dir,
    });
    const paused = await agent.run('clean up');
    const resumed = await agent.resume(paused.approvalId as string, {
      decision: 'reject',
      actor: 'cli:bob',
      reason: 'keep it',
    });
    expect(resumed).toMatchObject({ stopReason: 'final', text: 'ok, not cleaning' });
    expect(log).toEqual([]);
  });
});
