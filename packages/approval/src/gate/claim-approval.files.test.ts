import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ApprovalStores } from '@tiny-claw/core';
import { type SessionRef, StateError } from '@tiny-claw/core';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bashCall,
  cliSessionOf,
  deadPid,
  gateHarness,
  pauseCall,
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

describe('claiming a decision (file stores only)', () => {
  beforeEach(async () => {
    ws = await createTempWorkspace({ '.env': 'A=1\n' });
    harness = await gateHarness('file');
    session = cliSessionOf(ws.dir);
  });

  afterEach(async () => {
    await harness.cleanup();
    await ws.cleanup();
  });

  const approvalPath = (id: string) =>
    join(harness.stateDir, 'sessions', session.key, 'approvals', `${id}.json`);
  const checkpointPath = (id: string) =>
    join(harness.stateDir, 'sessions', session.key, 'checkpoints', `${id}.json`);

  it('tells a request of another session from an unknown one by searching every session', async () => {
    const { approvalId } = await pauseCall(
      harness.gate,
      cliSessionOf(ws.dir, 'a'),
      bashCall('rm x'),
    );
    expect(
      (
        await refusalOf(
          harness.gate.claim(approvalId, approve({ session: cliSessionOf(ws.dir, 'b') })),
        )
      ).refusal,
    ).toBe('wrong_session');
  });

  it('quarantines a request record a tool rewrote to approved, and reports it', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    await writeFile(approvalPath(approvalId), '{"status":"approved"}');
    const error = await harness.gate.claim(approvalId, approve()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateError);
    expect((error as Error).message).toContain('.unreadable-');
    const names = await readdir(join(harness.stateDir, 'sessions', session.key, 'approvals'));
    expect(names.some((name) => name.startsWith(`${approvalId}.json.unreadable-`))).toBe(true);
  });

  it('refuses a request record that is a symbolic link', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    const copy = join(harness.stateDir, 'copy.json');
    await writeFile(copy, await readFile(approvalPath(approvalId)));
    await rm(approvalPath(approvalId));
    await symlink(copy, approvalPath(approvalId));
    await expect(harness.gate.claim(approvalId, approve())).rejects.toThrow(/symbolic link/);
  });

  it.each([
    ['empty', ''],
    ['all NUL', '\0'.repeat(28_454)],
    ['cut off', '{"schemaVersion":1,"id":"cp_'],
    ['of another version', '{"schemaVersion":7}'],
    ['an array', '[]'],
  ])(
    'reports a checkpoint that is %s as corrupted, moves it aside and runs nothing',
    async (_label, text) => {
      const { approvalId, checkpointId } = await pauseCall(harness.gate, session, bashCall('rm x'));
      await writeFile(checkpointPath(checkpointId), text);
      const error = await refusalOf(harness.gate.claim(approvalId, approve()));
      expect(error.refusal).toBe('checkpoint_missing');
      expect(error.message).toContain('checkpoint corrupted');
      expect(error.message).toContain('.unreadable-');
      expect(await statusOf(harness.stores, approvalId)).toBe('failed');
    },
  );

  it('refuses a checkpoint that is a symbolic link and runs nothing', async () => {
    const { approvalId, checkpointId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    const elsewhere = join(harness.stateDir, 'secret');
    await writeFile(elsewhere, await readFile(checkpointPath(checkpointId)));
    await rm(checkpointPath(checkpointId));
    await symlink(elsewhere, checkpointPath(checkpointId));
    const error = await refusalOf(harness.gate.claim(approvalId, approve()));
    expect(error.refusal).toBe('checkpoint_missing');
    expect(error.message).toContain('symbolic link');
  });

  it('never runs a call again after its process died between the claim and the answer: unknown_outcome', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    const record = await harness.stores.approvals.read(session.key, approvalId);
    if (!record) throw new Error('missing record');
    const crashed = { pid: deadPid(), host: hostname(), at: '2026-01-01T00:00:05.000Z' };
    await harness.stores.approvals.claim(session.key, approvalId, {
      ...crashed,
      actor: 'cli:bob',
      decision: 'approve',
    });
    await harness.stores.approvals.write({
      ...record,
      status: 'claimed',
      decision: 'approve',
      decidedBy: 'cli:bob',
      decidedAt: crashed.at,
      claimedBy: crashed,
    });
    const error = await refusalOf(harness.gate.claim(approvalId, approve()));
    expect(error.refusal).toBe('already_handled');
    expect(error.message).toContain('may or may not have run');
    expect(await statusOf(harness.stores, approvalId)).toBe('unknown_outcome');
  });

  it('treats a claim taken by a process that died before recording it as unknown_outcome too', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    await harness.stores.approvals.claim(session.key, approvalId, {
      pid: deadPid(),
      host: hostname(),
      at: '2026-01-01T00:00:05.000Z',
      actor: 'cli:bob',
      decision: 'approve',
    });
    expect((await refusalOf(harness.gate.claim(approvalId, approve()))).refusal).toBe(
      'already_handled',
    );
    expect(await statusOf(harness.stores, approvalId)).toBe('unknown_outcome');
  });

  it('reports a claim held by a live process as already handled, naming who decided', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    await harness.stores.approvals.claim(session.key, approvalId, {
      pid: process.pid,
      host: hostname(),
      at: '2026-01-01T00:00:05.000Z',
      actor: 'cli:bob',
      decision: 'reject',
    });
    const error = await refusalOf(harness.gate.claim(approvalId, approve()));
    expect(error.refusal).toBe('already_handled');
    expect(error.message).toContain('cli:bob');
    expect(await statusOf(harness.stores, approvalId)).toBe('pending');
  });
});
