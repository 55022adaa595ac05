import { readdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { ApprovalError, ApprovalRefusal, ApprovalStores, SessionRef } from '@tiny-claw/core';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bashCall,
  chatSessionOf,
  cliSessionOf,
  gateHarness,
  pauseCall,
  refusalOf,
} from './__fixtures__/approval-fixtures.js';
import { createApprovalGate } from './create-approval-gate.js';

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
    expect(claimed.state.batch?.calls[0]?.call.arguments).toEqual({ command: 'rm -rf build' });
    expect(claimed.grant?.approvalId).toBe(approvalId);
    expect(claimed.grant?.token).toMatch(/^ct_[A-Za-z0-9_-]{32}$/);
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
    expect(rejected.grant).toBeUndefined();
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
    const error = await refusalOf(harness.gate.claim('ap_AAAAAAAAAAAAAAAAAAAAAA', approve()));
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
        store: { ...harness.stores, approvals: spy },
        assess: async () => ({ verdict: 'allow', reasons: [] }),
      });
      expect((await refusalOf(spied.claim(id, approve()))).refusal).toBe('invalid_id');
      expect(asked).toEqual([]);
    },
  );

  it('counts the expiry instant as expired and stores the request as expired', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    harness.clock.set('2026-01-01T01:00:00.000Z');
    const error = await refusalOf(harness.gate.claim(approvalId, approve()));
    expect(error.refusal).toBe('expired');
    expect(error.message).toContain('expired at 2026-01-01T01:00:00.000Z');
    expect(await statusOf(harness.stores, approvalId)).toBe('expired');
    // Asked again later it is still expired, not "already handled".
    expect((await refusalOf(harness.gate.claim(approvalId, approve()))).refusal).toBe('expired');
  });

  it('accepts a decision one millisecond before the expiry', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    harness.clock.set('2026-01-01T00:59:59.999Z');
    expect((await harness.gate.claim(approvalId, approve())).approvalId).toBe(approvalId);
  });

  it('treats a clock that went back before the request as expired (fail closed)', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    harness.clock.advance(-3_600_000);
    const error = await refusalOf(harness.gate.claim(approvalId, approve()));
    expect(error.refusal).toBe('expired');
    expect(error.message).toContain('clock reads earlier');
    expect(await statusOf(harness.stores, approvalId)).toBe('expired');
  });

  it('uses the configured timeout', async () => {
    const short = await gateHarness(kind, { timeoutSeconds: 60 });
    try {
      const { approvalId } = await pauseCall(short.gate, session, bashCall('rm x'));
      short.clock.advance(60_000);
      expect((await refusalOf(short.gate.claim(approvalId, approve()))).refusal).toBe('expired');
    } finally {
      await short.cleanup();
    }
  });

  it('refuses to approve a call to a tool the deciding agent cannot run, before claiming: the request stays pending', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('make test'));
    const error = await refusalOf(
      harness.gate.claim(approvalId, { ...approve(), runnableTools: ['read', 'write'] }),
    );
    expect(error.refusal).toBe('tool_unavailable');
    expect(error.message).toContain('bash');
    expect(error.message).toContain('still pending');
    expect(await statusOf(harness.stores, approvalId)).toBe('pending');
    // A rejection runs nothing, so an agent without the tool may make it; one with it may approve.
    const claimed = await harness.gate.claim(approvalId, {
      ...approve(),
      runnableTools: ['read', 'bash'],
    });
    expect(claimed.decision).toBe('approve');
  });

  it('lets an agent without the tool reject the call', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('make test'));
    const claimed = await harness.gate.claim(approvalId, { ...reject(), runnableTools: ['read'] });
    expect(claimed.decision).toBe('reject');
  });

  it('refuses a request of another session, and changes nothing', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    const other = cliSessionOf(ws.dir, 'other');
    const error = await refusalOf(harness.gate.claim(approvalId, approve({ session: other })));
    expect(error.refusal).toBe('wrong_session');
    expect(error.message).toContain('belongs to another session');
    expect(await statusOf(harness.stores, approvalId)).toBe('pending');
  });

  it('refuses a chat decision from another chat than the one that asked', async () => {
    const chat = chatSessionOf(ws.dir, 'oc_abc');
    const { approvalId } = await pauseCall(harness.gate, chat, bashCall('rm x'), {
      origin: 'oc_abc',
    });
    const record = await harness.stores.approvals.read(chat.key, approvalId);
    expect(record?.chatId).toBe('oc_abc');
    const error = await refusalOf(
      harness.gate.claim(approvalId, approve({ session: chat, origin: 'oc_other' })),
    );
    expect(error.refusal).toBe('wrong_session');
    // The same chat is accepted.
    expect(
      (await harness.gate.claim(approvalId, approve({ session: chat, origin: 'oc_abc' })))
        .approvalId,
    ).toBe(approvalId);
  });

  it('reports another session before an expiry (the order of the checks)', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    harness.clock.set('2026-01-02T00:00:00.000Z');
    const other = cliSessionOf(ws.dir, 'other');
    expect(
      (await refusalOf(harness.gate.claim(approvalId, approve({ session: other })))).refusal,
    ).toBe('wrong_session');
    expect(await statusOf(harness.stores, approvalId)).toBe('pending');
  });

  it('asks who may decide before looking at the status or the expiry', async () => {
    const strict = await gateHarness(kind, { canDecide: (actor) => actor === 'cli:admin' });
    try {
      const { approvalId } = await pauseCall(strict.gate, session, bashCall('rm x'));
      strict.clock.set('2026-01-02T00:00:00.000Z');
      const error = await refusalOf(strict.gate.claim(approvalId, approve()));
      expect(error.refusal).toBe('not_allowed');
      expect(error.message).toContain('cli:alice may not decide');
      expect(
        (await refusalOf(strict.gate.claim(approvalId, approve({ actor: 'cli:admin' })))).refusal,
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
        requestedBy: 'cli:alice',
      });
      expect((await refusalOf(fair.gate.claim(approvalId, approve()))).refusal).toBe('not_allowed');
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
    expect((await refusalOf(harness.gate.claim(approvalId, approve()))).refusal).toBe(
      'already_handled',
    );
  });

  it('refuses a replay after the approved call ran: already used, nothing claimed again', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm x'));
    await harness.gate.complete(await harness.gate.claim(approvalId, approve()), 'consumed');
    const error = await refusalOf(
      harness.gate.claim(approvalId, approve({ actor: 'cli:mallory' })),
    );
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
});
