import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApprovalError, type ApprovalStore } from '@tiny-claw/core';
import { createFileStore, type FileStore } from '@tiny-claw/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadPid, pendingRecord } from './__fixtures__/records.js';
import { listApprovals, readApproval } from './approval-queries.js';

let stateDir: string;
let state: FileStore;
let store: ApprovalStore;

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'tiny-claw-approval-queries-'));
  state = createFileStore(stateDir);
  store = state.approvals;
});

afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

const at = '2026-01-01T00:10:00.000Z';

describe('readApproval', () => {
  it('finds a request by id in whatever session holds it', async () => {
    const record = pendingRecord({ sessionKey: 'feishu-1a2b3c4d5e6f-chat-oc_1' });
    await store.create(record);
    expect(await readApproval(state, record.id)).toEqual(record);
  });

  it('returns nothing for an unknown id and refuses a malformed one before touching a file', async () => {
    expect(await readApproval(state, pendingRecord().id)).toBeUndefined();
    const error = await readApproval(state, '../../etc/passwd').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApprovalError);
    expect((error as ApprovalError).refusal).toBe('invalid_id');
  });

  it('stores and reports unknown_outcome for a claim whose process died before finishing', async () => {
    const record = pendingRecord({
      status: 'claimed',
      decision: 'approve',
      decidedBy: 'cli:bob',
      decidedAt: at,
      claimedBy: { pid: deadPid(), host: hostname(), at },
    });
    await store.create(record);
    expect((await readApproval(state, record.id))?.status).toBe('unknown_outcome');
    expect((await store.read(record.sessionKey, record.id))?.status).toBe('unknown_outcome');
  });

  it('stores unknown_outcome for a pending request whose claimant died before recording its decision', async () => {
    const record = pendingRecord();
    await store.create(record);
    await store.claim(record.sessionKey, record.id, {
      pid: deadPid(),
      host: hostname(),
      at,
      actor: 'cli:bob',
      decision: 'approve',
    });
    const read = await readApproval(state, record.id);
    expect(read).toMatchObject({
      status: 'unknown_outcome',
      decidedBy: 'cli:bob',
      decision: 'approve',
    });
  });

  it('stores expired for a pending request whose claim was only taken to record its expiry', async () => {
    const record = pendingRecord();
    await store.create(record);
    await store.claim(record.sessionKey, record.id, {
      pid: deadPid(),
      host: hostname(),
      at,
      actor: 'cli:bob',
      decision: 'expire',
    });
    expect((await readApproval(state, record.id))?.status).toBe('expired');
  });

  it('leaves a claim alone while its process lives, or when it was made on another host', async () => {
    const mine = pendingRecord({
      status: 'claimed',
      claimedBy: { pid: process.pid, host: hostname(), at },
    });
    const remote = pendingRecord({
      status: 'claimed',
      claimedBy: { pid: deadPid(), host: `${hostname()}-elsewhere`, at },
    });
    await store.create(mine);
    await store.create(remote);
    expect((await readApproval(state, mine.id))?.status).toBe('claimed');
    expect((await readApproval(state, remote.id))?.status).toBe('claimed');
  });
});

describe('listApprovals', () => {
  it('filters by status and by session, oldest first', async () => {
    // Listing records a request found past its expiry as expired: these have not expired yet.
    const expiresAt = '2999-01-01T00:00:00.000Z';
    const a = pendingRecord({ createdAt: '2026-01-01T00:00:01.000Z', expiresAt });
    const b = pendingRecord({ createdAt: '2026-01-01T00:00:02.000Z', status: 'rejected' });
    const c = pendingRecord({
      createdAt: '2026-01-01T00:00:03.000Z',
      expiresAt,
      sessionKey: 'cli-1a2b3c4d5e6f-other',
    });
    for (const record of [c, b, a]) await store.create(record);
    expect((await listApprovals(state)).map((r) => r.id)).toEqual([a.id, b.id, c.id]);
    expect((await listApprovals(state, { status: 'pending' })).map((r) => r.id)).toEqual([
      a.id,
      c.id,
    ]);
    expect((await listApprovals(state, { sessionKey: c.sessionKey })).map((r) => r.id)).toEqual([
      c.id,
    ]);
  });

  it('shows a claim whose process died as unknown_outcome', async () => {
    const record = pendingRecord({
      status: 'claimed',
      claimedBy: { pid: deadPid(), host: hostname(), at },
    });
    await store.create(record);
    expect((await listApprovals(state, { status: 'unknown_outcome' })).map((r) => r.id)).toEqual([
      record.id,
    ]);
    expect(await listApprovals(state, { status: 'claimed' })).toEqual([]);
  });

  it('lists nothing for a state dir that has no sessions yet', async () => {
    expect(await listApprovals(createFileStore(join(stateDir, 'fresh')))).toEqual([]);
  });
});
