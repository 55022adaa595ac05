import { spawnSync } from 'node:child_process';
import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ApprovalError, type ApprovalRefusal, type SessionRef, StateError } from '@tiny-claw/core';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalStores } from '../store/approval-store.js';
import {
  bashCall,
  chatSessionOf,
  cliSessionOf,
  gateHarness,
  pauseCall,
  pausedState,
} from './__fixtures__/approval-fixtures.js';
import { createApprovalGate } from './create-approval-gate.js';

let ws: TempWorkspace;
let harness: Awaited<ReturnType<typeof gateHarness>>;
let session: SessionRef;

async function refusal(promise: Promise<unknown>): Promise<ApprovalError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApprovalError))
    throw new Error(`expected an ApprovalError, got ${String(error)}`);
  return error;
}

async function statusOf(stores: ApprovalStores, id: string, key = session.key) {
  return (await stores.approvals.read(key, id))?.status;
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (child.pid === undefined) throw new Error('could not start a child process');
  return child.pid;
}

const approve = (
  over: Partial<{ actor: string; session: SessionRef; chatId: string; reason: string }> = {},
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

describe.each(['file', 'memory'] as const)('claiming a decision (%s stores)', (kind) => {
  beforeEach(async () => {
    ws = await createTempWorkspace({ '.env': 'A=1\n' });
    harness = await gateHarness(kind);
    session = cliSessionOf(ws.dir);
  });

  afterEach(async () => {
    await harness.cleanup();
    await ws.cleanup();
  });

  it('hands the winner the checkpoint state, the waiting call, the wait and a claim token', async () => {
    const { approvalId, checkpointId } = await pauseCall(
      harness.gate,
      session,
      bashCall('rm -rf build'),
    );
    harness.clock.advance(90_000);
    const claimed = await harness.gate.claim(approvalId, approve({ reason: 'fine' }));
    expect(claimed).toMatchObject({
      approvalId,
      checkpointId,
      decision: 'approve',
      actor: 'cli:alice',
      reason: 'fine',
      callId: 'call_1',
      waitMs: 90_000,
    });
    expect(claimed.state.pending?.calls[0]?.arguments).toEqual({ command: 'rm -rf build' });
    expect(claimed.metadata).toMatchObject({
      approval_id: approvalId,
      checkpoint_id: checkpointId,
    });
    expect(typeof claimed.metadata.approval_claim).toBe('string');
    const record = await harness.stores.approvals.read(session.key, approvalId);
    expect(record).toMatchObject({
      status: 'claimed',
      decision: 'approve',
      decidedBy: 'cli:alice',
      decisionReason: 'fine',
      decidedAt: '2026-01-01T00:01:30.000Z',
      claimedBy: { pid: process.pid, host: hostname() },
    });
  });

  it('records consumed and rejected when the claimed call is answered', async () => {
    const first = await pauseCall(harness.gate, session, bashCall('rm a'));
    const second = await pauseCall(harness.gate, session, bashCall('rm b', 'call_2'));
    await harness.gate.complete(await harness.gate.claim(first.approvalId, approve()), 'consumed');
    const rejected = await harness.gate.claim(second.approvalId, reject());
    expect(rejected.metadata.approval_claim).toBeUndefined();
    await harness.gate.complete(rejected, 'rejected');
    expect(await harness.stores.approvals.read(session.key, first.approvalId)).toMatchObject({
      status: 'consumed',
      completedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(await harness.stores.approvals.read(session.key, second.approvalId)).toMatchObject({
      status: 'rejected',
      decidedBy: 'cli:bob',
      decisionReason: 'not today',
    });
  });

  it('reports an unknown id as not found and changes nothing', async () => {
    const before = kind === 'file' ? await readdir(harness.stateDir) : [];
    const error = await refusal(harness.gate.claim('ap_AAAAAAAAAAAAAAAAAAAAAA', approve()));
    expect(error.refusal).toBe('not_found');
    expect(error.message).toContain('no approval request ap_AAAAAAAAAAAAAAAAAAAAAA');
    if (kind === 'file') expect(await readdir(harness.stateDir)).toEqual(before);
  });

  it.each(['../../etc/passwd', '..%2F..%2Fx', 'a/b', 'a\0b', 'a'.repeat(200), ''])(
    'refuses the id %j before any store is asked',
    async (id) => {
      const asked: string[] = [];
      const spy = new Proxy(harness.stores.approvals, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            asked.push(String(name));
            return value.apply(target, args);
          };
        },
      });
      const spied = createApprovalGate({
        stores: { ...harness.stores, approvals: spy },
        assess: async () => ({ verdict: 'allow', reasons: [] }),
      });
      expect((await refusal(spied.claim(id, approve()))).refusal).toBe('invalid_id');
      expect(asked).toEqual([]);
    },
  );

  it('counts the expiry instant as expired and stores the request as expired', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    harness.clock.set('2026-01-01T01:00:00.000Z');
    const error = await refusal(harness.gate.claim(approvalId, approve()));
    expect(error.refusal).toBe('expired');
    expect(error.message).toContain('expired at 2026-01-01T01:00:00.000Z');
    expect(await statusOf(harness.stores, approvalId)).toBe('expired');
    // Asked again later it is still expired, not "already handled".
    expect((await refusal(harness.gate.claim(approvalId, approve()))).refusal).toBe('expired');
  });

  it('accepts a decision one millisecond before the expiry', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    harness.clock.set('2026-01-01T00:59:59.999Z');
    expect((await harness.gate.claim(approvalId, approve())).approvalId).toBe(approvalId);
  });

  it('treats a clock that went back before the request as expired (fail closed)', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    harness.clock.advance(-3_600_000);
    const error = await refusal(harness.gate.claim(approvalId, approve()));
    expect(error.refusal).toBe('expired');
    expect(error.message).toContain('clock reads earlier');
    expect(await statusOf(harness.stores, approvalId)).toBe('expired');
  });

  it('uses the configured timeout', async () => {
    const short = await gateHarness(kind, { timeoutSeconds: 60 });
    try {
      const { approvalId } = await pauseCall(short.gate, session, bashCall('rm x'));
      short.clock.advance(60_000);
      expect((await refusal(short.gate.claim(approvalId, approve()))).refusal).toBe('expired');
    } finally {
      await short.cleanup();
    }
  });

  it('refuses a request of another session, and changes nothing', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    const other = cliSessionOf(ws.dir, 'other');
    const error = await refusal(harness.gate.claim(approvalId, approve({ session: other })));
    expect(error.refusal).toBe('wrong_session');
    expect(error.message).toContain('belongs to another session');
    expect(await statusOf(harness.stores, approvalId)).toBe('pending');
  });

  it('refuses a chat decision from another chat than the one that asked', async () => {
    const chat = chatSessionOf(ws.dir, 'oc_abc');
    const { approvalId } = await pauseCall(harness.gate, chat, bashCall('rm x'));
    const record = await harness.stores.approvals.read(chat.key, approvalId);
    expect(record?.chatId).toBe('oc_abc');
    const error = await refusal(
      harness.gate.claim(approvalId, approve({ session: chat, chatId: 'oc_other' })),
    );
    expect(error.refusal).toBe('wrong_session');
    // The same chat, as the platform spells it (upper case), is accepted.
    expect(
      (await harness.gate.claim(approvalId, approve({ session: chat, chatId: 'oc_ABC' })))
        .approvalId,
    ).toBe(approvalId);
  });

  it('reports another session before an expiry (the order of the checks)', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    harness.clock.set('2026-01-02T00:00:00.000Z');
    const other = cliSessionOf(ws.dir, 'other');
    expect(
      (await refusal(harness.gate.claim(approvalId, approve({ session: other })))).refusal,
    ).toBe('wrong_session');
    expect(await statusOf(harness.stores, approvalId)).toBe('pending');
  });

  it('asks who may decide before looking at the status or the expiry', async () => {
    const strict = await gateHarness(kind, { canDecide: (actor) => actor === 'cli:admin' });
    try {
      const { approvalId } = await pauseCall(strict.gate, session, bashCall('rm x'));
      strict.clock.set('2026-01-02T00:00:00.000Z');
      const error = await refusal(strict.gate.claim(approvalId, approve()));
      expect(error.refusal).toBe('not_allowed');
      expect(error.message).toContain('cli:alice may not decide');
      expect(
        (await refusal(strict.gate.claim(approvalId, approve({ actor: 'cli:admin' })))).refusal,
      ).toBe('expired');
    } finally {
      await strict.cleanup();
    }
  });

  it('passes the stored request to canDecide, so a requester can be kept from approving their own call', async () => {
    const fair = await gateHarness(kind, {
      canDecide: (actor, record) => actor !== record.requestedBy,
    });
    try {
      const { approvalId } = await pauseCall(fair.gate, session, bashCall('rm x'), {
        requested_by: 'cli:alice',
      });
      expect((await refusal(fair.gate.claim(approvalId, approve()))).refusal).toBe('not_allowed');
      expect((await fair.gate.claim(approvalId, approve({ actor: 'cli:bob' }))).actor).toBe(
        'cli:bob',
      );
    } finally {
      await fair.cleanup();
    }
  });

  it('reports a handled request as already handled before its expiry', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    await harness.gate.complete(await harness.gate.claim(approvalId, approve()), 'consumed');
    harness.clock.set('2026-01-02T00:00:00.000Z');
    expect((await refusal(harness.gate.claim(approvalId, approve()))).refusal).toBe(
      'already_handled',
    );
  });

  it('refuses a replay after the approved call ran: already used, nothing claimed again', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    await harness.gate.complete(await harness.gate.claim(approvalId, approve()), 'consumed');
    const error = await refusal(harness.gate.claim(approvalId, approve({ actor: 'cli:mallory' })));
    expect(error.refusal).toBe('already_handled');
    expect(error.message).toContain('already used');
    expect(error.message).toContain('approved by cli:alice');
    expect(await harness.stores.approvals.read(session.key, approvalId)).toMatchObject({
      status: 'consumed',
      decidedBy: 'cli:alice',
    });
  });

  it('lets exactly one of an approval and a rejection sent at once win', async () => {
    for (let round = 0; round < 10; round += 1) {
      const { approvalId } = await pauseCall(harness.gate, session, bashCall(`rm ${round}`));
      const outcomes = await Promise.allSettled([
        harness.gate.claim(approvalId, approve()),
        harness.gate.claim(approvalId, reject()),
      ]);
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.flatMap((o) =>
        o.status === 'rejected' ? [o.reason as ApprovalError] : [],
      );
      expect(won).toHaveLength(1);
      expect(lost.map((e) => e.refusal)).toEqual(['already_handled']);
      expect(lost[0]?.message).toContain('already handled');
    }
  });

  it('lets exactly one of twenty concurrent approvals win', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        harness.gate.claim(approvalId, approve({ actor: `cli:u${i}` })),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refusals = outcomes.flatMap((o) =>
      o.status === 'rejected' ? [(o.reason as ApprovalError).refusal] : [],
    );
    expect(new Set(refusals)).toEqual(new Set<ApprovalRefusal>(['already_handled']));
  });

  it('fails closed when the checkpoint call was changed after the request (another command)', async () => {
    const { approvalId, checkpointId } = await pauseCall(harness.gate, session, bashCall('ls'));
    await harness.gate.saveCheckpoint(checkpointId, pausedState(session, [bashCall('rm -rf x')]));
    const error = await refusal(harness.gate.claim(approvalId, approve()));
    expect(error.refusal).toBe('tampered');
    expect(await harness.stores.approvals.read(session.key, approvalId)).toMatchObject({
      status: 'failed',
      failure: 'tampered',
    });
    expect((await refusal(harness.gate.claim(approvalId, approve()))).refusal).toBe(
      'already_handled',
    );
  });

  it('fails closed when the checkpoint call got another timeout', async () => {
    const call = { id: 'call_1', name: 'bash', arguments: { command: 'make', timeout: 10 } };
    const { approvalId, checkpointId } = await pauseCall(harness.gate, session, call);
    const longer = { ...call, arguments: { command: 'make', timeout: 100_000 } };
    await harness.gate.saveCheckpoint(checkpointId, pausedState(session, [longer]));
    expect((await refusal(harness.gate.claim(approvalId, approve()))).refusal).toBe('tampered');
  });

  it('fails closed when the checkpoint moved the run to another workdir', async () => {
    const { approvalId, checkpointId } = await pauseCall(harness.gate, session, bashCall('ls'));
    const moved = { ...session, workdir: '/elsewhere' };
    await harness.gate.saveCheckpoint(checkpointId, pausedState(moved, [bashCall('ls')]));
    expect((await refusal(harness.gate.claim(approvalId, approve()))).refusal).toBe('tampered');
  });

  it('fails closed when the checkpoint no longer holds the waiting call', async () => {
    const { approvalId, checkpointId } = await pauseCall(harness.gate, session, bashCall('ls'));
    await harness.gate.saveCheckpoint(
      checkpointId,
      pausedState(session, [bashCall('ls', 'call_9')]),
    );
    const error = await refusal(harness.gate.claim(approvalId, approve()));
    expect(error.refusal).toBe('tampered');
    expect(error.message).toContain('does not hold the waiting call');
  });

  it('fails closed when the request record itself was edited (its arguments no longer match its hash)', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('ls'));
    const record = await harness.stores.approvals.read(session.key, approvalId);
    if (!record) throw new Error('missing record');
    await harness.stores.approvals.write({ ...record, arguments: { command: 'echo harmless' } });
    const error = await refusal(harness.gate.claim(approvalId, approve()));
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
    expect(claimed.state.pending?.calls[0]?.arguments).toEqual({ command: 'rm -rf x' });
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
    const error = await refusal(harness.gate.claim(result.approvalId, approve()));
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
    const error = await refusal(harness.gate.claim(approvalId, approve()));
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
    const error = await refusal(harness.gate.claim(approvalId, approve({ actor: 'cli:mallory' })));
    expect(error.refusal).toBe('already_handled');
  });
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
        await refusal(
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
      const error = await refusal(harness.gate.claim(approvalId, approve()));
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
    const error = await refusal(harness.gate.claim(approvalId, approve()));
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
    const error = await refusal(harness.gate.claim(approvalId, approve()));
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
    expect((await refusal(harness.gate.claim(approvalId, approve()))).refusal).toBe(
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
    const error = await refusal(harness.gate.claim(approvalId, approve()));
    expect(error.refusal).toBe('already_handled');
    expect(error.message).toContain('cli:bob');
    expect(await statusOf(harness.stores, approvalId)).toBe('pending');
  });
});
