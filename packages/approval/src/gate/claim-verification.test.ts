import { writeFile } from 'node:fs/promises';
import type { ApprovalStores, SessionRef } from '@tiny-claw/core';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bashCall,
  cliSessionOf,
  gateHarness,
  pauseCall,
  pausedState,
  refusalOf,
} from './__fixtures__/approval-fixtures.js';

let ws: TempWorkspace;
let harness: Awaited<ReturnType<typeof gateHarness>>;
let session: SessionRef;

async function statusOf(stores: ApprovalStores, id: string, key = session.key) {
  return (await stores.approvals.read(key, id))?.status;
}

const approve = (
  over: Partial<{ actor: string; session: SessionRef; origin: string; reason: string }> = {},
) => ({
  decision: 'approve' as const,
  actor: 'cli:alice',
  session,
  ...over,
});
const reject = (over: Partial<{ actor: string; reason: string }> = {}) => ({
  decision: 'reject' as const,
  actor: 'cli:bob',
  reason: 'not today',
  session,
  ...over,
});

describe.each(['file', 'memory'] as const)('verifying a claimed decision (%s stores)', (kind) => {
  beforeEach(async () => {
    ws = await createTempWorkspace({ '.env': 'A=1\n' });
    harness = await gateHarness(kind);
    session = cliSessionOf(ws.dir);
  });

  afterEach(async () => {
    await harness.cleanup();
    await ws.cleanup();
  });

  it('fails closed when the checkpoint call was changed after the request (another command)', async () => {
    const { approvalId, checkpointId } = await pauseCall(harness.gate, session, bashCall('ls'));
    await harness.gate.saveCheckpoint(checkpointId, pausedState(session, [bashCall('rm -rf x')]));
    const error = await refusalOf(harness.gate.claim(approvalId, approve()));
    expect(error.refusal).toBe('tampered');
    expect(await harness.stores.approvals.read(session.key, approvalId)).toMatchObject({
      status: 'failed',
      failure: 'tampered',
    });
    expect((await refusalOf(harness.gate.claim(approvalId, approve()))).refusal).toBe(
      'already_handled',
    );
  });

  it('fails closed when the checkpoint call got another timeout', async () => {
    const call = { id: 'call_1', name: 'bash', arguments: { command: 'make', timeout: 10 } };
    const { approvalId, checkpointId } = await pauseCall(harness.gate, session, call);
    const longer = { ...call, arguments: { command: 'make', timeout: 100_000 } };
    await harness.gate.saveCheckpoint(checkpointId, pausedState(session, [longer]));
    expect((await refusalOf(harness.gate.claim(approvalId, approve()))).refusal).toBe('tampered');
  });

  it('fails closed when the checkpoint moved the run to another workdir', async () => {
    const { approvalId, checkpointId } = await pauseCall(harness.gate, session, bashCall('ls'));
    const moved = { ...session, workdir: '/elsewhere' };
    await harness.gate.saveCheckpoint(checkpointId, pausedState(moved, [bashCall('ls')]));
    expect((await refusalOf(harness.gate.claim(approvalId, approve()))).refusal).toBe('tampered');
  });

  it('fails closed when the checkpoint no longer holds the waiting call', async () => {
    const { approvalId, checkpointId } = await pauseCall(harness.gate, session, bashCall('ls'));
    await harness.gate.saveCheckpoint(
      checkpointId,
      pausedState(session, [bashCall('ls', 'call_9')]),
    );
    const error = await refusalOf(harness.gate.claim(approvalId, approve()));
    expect(error.refusal).toBe('tampered');
    expect(error.message).toContain('does not hold the waiting call');
  });

  it('fails closed when the request record itself was edited (its arguments no longer match its hash)', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('ls'));
    const record = await harness.stores.approvals.read(session.key, approvalId);
    if (!record) throw new Error('missing record');
    await harness.stores.approvals.write({ ...record, arguments: { command: 'echo harmless' } });
    const error = await refusalOf(harness.gate.claim(approvalId, approve()));
    expect(error.refusal).toBe('tampered');
    expect(await statusOf(harness.stores, approvalId)).toBe('failed');
  });

  it('shows and runs the same command when the model sent duplicate keys', async () => {
    const parsed = JSON.parse('{"command":"ls","command":"rm -rf x"}') as { command: string };
    const call = { id: 'call_1', name: 'bash', arguments: parsed };
    const { approvalId } = await pauseCall(harness.gate, session, call);
    const record = await harness.stores.approvals.read(session.key, approvalId);
    const claimed = await harness.gate.claim(approvalId, approve());
    expect(record?.arguments).toEqual({ command: 'rm -rf x' });
    expect(claimed.state.batch?.calls[0]?.call.arguments).toEqual({ command: 'rm -rf x' });
  });

  it('fails closed when the checkpoint was never written', async () => {
    const result = await harness.gate.middleware(
      {
        call: bashCall('rm x'),
        workdir: session.workdir,
        session,
        signal: new AbortController().signal,
        visibleTools: ['bash'],
        metadata: {},
      },
      async () => ({ status: 'completed', output: { content: '', isError: false } }),
    );
    if (result.status !== 'suspended') throw new Error('expected a pause');
    const error = await refusalOf(harness.gate.claim(result.approvalId, approve()));
    expect(error.refusal).toBe('checkpoint_missing');
    expect(await harness.stores.approvals.read(session.key, result.approvalId)).toMatchObject({
      status: 'failed',
      failure: 'checkpoint_missing',
    });
  });

  it('refuses to approve an edit whose file changed since the request: file changed since approval was requested', async () => {
    const call = {
      id: 'call_1',
      name: 'edit',
      arguments: { path: '.env', old_text: 'A=1', new_text: 'A=2' },
    };
    const { approvalId } = await pauseCall(harness.gate, session, call);
    await writeFile(ws.path('.env'), 'A=1\nB=2\n');
    const error = await refusalOf(harness.gate.claim(approvalId, approve()));
    expect(error.refusal).toBe('drifted');
    expect(error.message).toContain('file changed since approval was requested');
    expect(await harness.stores.approvals.read(session.key, approvalId)).toMatchObject({
      status: 'failed',
      failure: 'drifted',
    });
  });

  it('still lets a person reject an edit whose file changed meanwhile', async () => {
    const call = { id: 'call_1', name: 'write', arguments: { path: '.env', content: 'X=1\n' } };
    const { approvalId } = await pauseCall(harness.gate, session, call);
    await writeFile(ws.path('.env'), 'changed\n');
    const claimed = await harness.gate.claim(approvalId, reject());
    expect(claimed.decision).toBe('reject');
  });

  it('refuses a request edited back to pending after it was used (the claim stays taken)', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    await harness.gate.complete(await harness.gate.claim(approvalId, approve()), 'consumed');
    const record = await harness.stores.approvals.read(session.key, approvalId);
    if (!record) throw new Error('missing record');
    const {
      decision: _d,
      decidedBy: _b,
      decidedAt: _a,
      claimedBy: _c,
      completedAt: _t,
      ...fresh
    } = record;
    await harness.stores.approvals.write({ ...fresh, status: 'pending' });
    const error = await refusalOf(
      harness.gate.claim(approvalId, approve({ actor: 'cli:mallory' })),
    );
    expect(error.refusal).toBe('already_handled');
  });
});
