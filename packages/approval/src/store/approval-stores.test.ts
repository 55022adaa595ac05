import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateError } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkpointFor, pendingRecord } from './__fixtures__/records.js';
import type { ApprovalStores, ClaimTicket } from './approval-store.js';
import { FileApprovalStore } from './file-approval-store.js';
import { FileCheckpointStore } from './file-checkpoint-store.js';
import { MemoryApprovalStore } from './memory-approval-store.js';
import { MemoryCheckpointStore } from './memory-checkpoint-store.js';

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

const kinds: Array<[string, () => ApprovalStores]> = [
  [
    'file',
    () => ({
      approvals: new FileApprovalStore(stateDir),
      checkpoints: new FileCheckpointStore(stateDir),
    }),
  ],
  [
    'memory',
    () => ({ approvals: new MemoryApprovalStore(), checkpoints: new MemoryCheckpointStore() }),
  ],
];

describe.each(kinds)('the %s stores behave alike', (_kind, make) => {
  it('give back what was stored, and nothing for an unknown id', async () => {
    const { approvals } = make();
    const record = pendingRecord();
    await approvals.create(record);
    expect(await approvals.read(record.sessionKey, record.id)).toEqual(record);
    expect(await approvals.read(record.sessionKey, pendingRecord().id)).toBeUndefined();
  });

  it('refuse to create a request twice', async () => {
    const { approvals } = make();
    const record = pendingRecord();
    await approvals.create(record);
    await expect(approvals.create(record)).rejects.toBeInstanceOf(StateError);
  });

  it('refuse a malformed record instead of storing it', async () => {
    const { approvals } = make();
    await expect(approvals.create({ ...pendingRecord(), toolCallHash: 'nope' })).rejects.toThrow();
  });

  it('hand out copies, so changing one does not change what is stored', async () => {
    const { approvals } = make();
    const record = pendingRecord();
    await approvals.create(record);
    const copy = await approvals.read(record.sessionKey, record.id);
    if (copy) copy.arguments.command = 'rm -rf x';
    expect((await approvals.read(record.sessionKey, record.id))?.arguments.command).toBe('ls');
  });

  it('replace a record on write', async () => {
    const { approvals } = make();
    const record = pendingRecord();
    await approvals.create(record);
    await approvals.write({ ...record, status: 'rejected' });
    expect((await approvals.read(record.sessionKey, record.id))?.status).toBe('rejected');
  });

  it('tell which session holds an id, and none for an unknown one', async () => {
    const { approvals } = make();
    const record = pendingRecord({ sessionKey: 'cli-1a2b3c4d5e6f-other' });
    await approvals.create(record);
    expect(await approvals.locate(record.id)).toBe('cli-1a2b3c4d5e6f-other');
    expect(await approvals.locate(pendingRecord().id)).toBeUndefined();
  });

  it('list requests oldest first, optionally of one session', async () => {
    const { approvals } = make();
    const late = pendingRecord({ createdAt: '2026-01-01T00:05:00.000Z' });
    const early = pendingRecord({ sessionKey: 'cli-1a2b3c4d5e6f-other' });
    await approvals.create(late);
    await approvals.create(early);
    expect((await approvals.list()).map((r) => r.id)).toEqual([early.id, late.id]);
    expect((await approvals.list({ sessionKey: late.sessionKey })).map((r) => r.id)).toEqual([
      late.id,
    ]);
  });

  it('grant the claim on a request exactly once, to the first of many concurrent claimants', async () => {
    const { approvals } = make();
    const record = pendingRecord();
    await approvals.create(record);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        approvals.claim(record.sessionKey, record.id, ticket(`actor-${i}`)),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect((await approvals.ticket(record.sessionKey, record.id))?.actor).toBe(`actor-${winner}`);
    expect(await approvals.claim(record.sessionKey, record.id, ticket('late'))).toBe(false);
  });

  it('report no ticket for an unclaimed request', async () => {
    const { approvals } = make();
    const record = pendingRecord();
    await approvals.create(record);
    expect(await approvals.ticket(record.sessionKey, record.id)).toBeUndefined();
  });

  it('refuse ids and session keys that could escape the state dir', async () => {
    const { approvals, checkpoints } = make();
    await expect(approvals.read('cli-1a2b3c4d5e6f-default', '../../etc/passwd')).rejects.toThrow(
      /not a valid approval id/,
    );
    await expect(approvals.read('../etc', pendingRecord().id)).rejects.toThrow(
      /Invalid session key/,
    );
    await expect(checkpoints.read('cli-1a2b3c4d5e6f-default', 'a/b')).rejects.toThrow(
      /not a valid checkpoint id/,
    );
  });

  it('keep checkpoints with their run state and give back copies', async () => {
    const { checkpoints } = make();
    const checkpoint = checkpointFor(pendingRecord());
    await checkpoints.save(checkpoint);
    const read = await checkpoints.read(checkpoint.sessionKey, checkpoint.id);
    expect(read).toEqual(checkpoint);
    if (read) read.state.prompt = 'changed';
    expect((await checkpoints.read(checkpoint.sessionKey, checkpoint.id))?.state.prompt).toBe(
      'do the thing',
    );
    expect(
      await checkpoints.read(checkpoint.sessionKey, pendingRecord().checkpointId),
    ).toBeUndefined();
  });
});

describe('the file stores', () => {
  it('write records 0600 in 0700 directories at the documented paths', async () => {
    const approvals = new FileApprovalStore(stateDir);
    const checkpoints = new FileCheckpointStore(stateDir);
    const record = pendingRecord();
    await approvals.create(record);
    await checkpoints.save(checkpointFor(record));
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

  it('list nothing under an empty state dir, and ignore files that are not records', async () => {
    const approvals = new FileApprovalStore(join(stateDir, 'missing'));
    expect(await approvals.list()).toEqual([]);
  });
});
