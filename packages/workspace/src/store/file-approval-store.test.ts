import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClaimTicket } from '@tiny-claw/core';
import { checkpointOf, pendingApproval } from '@tiny-claw/testkit/state-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileApprovalStore } from './file-approval-store.js';
import { FileCheckpointStore } from './file-checkpoint-store.js';

let stateDir: string;

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'tiny-claw-approval-store-'));
});

afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

const ticket = (actor: string): ClaimTicket => ({
  pid: process.pid,
  host: 'test-host',
  at: '2026-01-01T00:10:00.000Z',
  actor,
  decision: 'approve',
});

describe('the approval and checkpoint files', () => {
  it('are written 0600 in 0700 directories at the documented paths', async () => {
    const approvals = new FileApprovalStore(stateDir);
    const checkpoints = new FileCheckpointStore(stateDir);
    const record = pendingApproval();
    await approvals.create(record);
    await checkpoints.save(checkpointOf(record));
    await approvals.claim(record.sessionKey, record.id, ticket('me'));
    const dir = join(stateDir, 'sessions', record.sessionKey);
    const mode = async (path: string) => (await stat(path)).mode & 0o777;
    expect(await mode(join(dir, 'approvals', `${record.id}.json`))).toBe(0o600);
    expect(await mode(join(dir, 'approvals', `${record.id}.claim`))).toBe(0o600);
    expect(await mode(join(dir, 'checkpoints', `${record.checkpointId}.json`))).toBe(0o600);
    expect(await mode(join(dir, 'approvals'))).toBe(0o700);
    expect(await mode(join(dir, 'checkpoints'))).toBe(0o700);
    expect(await mode(join(stateDir, 'sessions'))).toBe(0o700);
  });

  it('list nothing under an empty state dir', async () => {
    const approvals = new FileApprovalStore(join(stateDir, 'missing'));
    expect(await approvals.list()).toEqual([]);
  });
});
