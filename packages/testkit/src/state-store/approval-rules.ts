import { ApprovalError, type ClaimTicket, ConfigurationError, StateError } from '@tiny-claw/core';
import { expect, it } from 'vitest';
import type { ContractContext } from './contract.js';
import { pendingApproval } from './records.js';

const ticket = (actor: string): ClaimTicket => ({
  pid: process.pid,
  host: 'test-host',
  at: '2026-01-01T00:10:00.000Z',
  actor,
  decision: 'approve',
});

/**
 * The rules of `store.approvals`.
 *
 * @example
 * describe('approvals', () => approvalRules(context));
 */
export function approvalRules(context: ContractContext): void {
  it('gives back what was stored, and nothing for an unknown id', async () => {
    const { approvals } = context().store;
    const record = pendingApproval();
    await approvals.create(record);
    expect(await approvals.read(record.sessionKey, record.id)).toEqual(record);
    expect(await approvals.read(record.sessionKey, pendingApproval().id)).toBeUndefined();
  });

  it('refuses to create a request twice', async () => {
    const { approvals } = context().store;
    const record = pendingApproval();
    await approvals.create(record);
    await expect(approvals.create(record)).rejects.toBeInstanceOf(StateError);
  });

  it('refuses a malformed record instead of storing it', async () => {
    const { approvals } = context().store;
    const record = pendingApproval({ toolCallHash: 'nope' });
    await expect(approvals.create(record)).rejects.toThrow();
    expect(await approvals.list()).toEqual([]);
  });

  it('hands out copies, so changing one does not change what is stored', async () => {
    const { approvals } = context().store;
    const record = pendingApproval();
    await approvals.create(record);
    const copy = await approvals.read(record.sessionKey, record.id);
    if (copy) copy.arguments.command = 'rm -rf x';
    expect((await approvals.read(record.sessionKey, record.id))?.arguments.command).toBe('ls');
  });

  it('replaces a record on write', async () => {
    const { approvals } = context().store;
    const record = pendingApproval();
    await approvals.create(record);
    await approvals.write({ ...record, status: 'rejected' });
    expect((await approvals.read(record.sessionKey, record.id))?.status).toBe('rejected');
  });

  it('tells which session holds an id, and none for an unknown one', async () => {
    const { approvals } = context().store;
    const record = pendingApproval({ sessionKey: 'cli-1a2b3c4d5e6f-other' });
    await approvals.create(record);
    expect(await approvals.locate(record.id)).toBe('cli-1a2b3c4d5e6f-other');
    expect(await approvals.locate(pendingApproval().id)).toBeUndefined();
  });

  it('lists requests oldest first, optionally of one session', async () => {
    const { approvals } = context().store;
    const late = pendingApproval({ createdAt: '2026-01-01T00:05:00.000Z' });
    const early = pendingApproval({ sessionKey: 'cli-1a2b3c4d5e6f-other' });
    await approvals.create(late);
    await approvals.create(early);
    expect((await approvals.list()).map((r) => r.id)).toEqual([early.id, late.id]);
    expect((await approvals.list({ sessionKey: late.sessionKey })).map((r) => r.id)).toEqual([
      late.id,
    ]);
  });

  it('grants the claim on a request exactly once, to one of many concurrent claimants', async () => {
    const { approvals } = context().store;
    const record = pendingApproval();
    await approvals.create(record);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        approvals.claim(record.sessionKey, record.id, ticket(`actor-${i}`)),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect(await approvals.ticket(record.sessionKey, record.id)).toEqual(ticket(`actor-${winner}`));
    expect(await approvals.claim(record.sessionKey, record.id, ticket('late'))).toBe(false);
  });

  it('keeps the claim when the request is written back to pending', async () => {
    const { approvals } = context().store;
    const record = pendingApproval();
    await approvals.create(record);
    expect(await approvals.claim(record.sessionKey, record.id, ticket('first'))).toBe(true);
    await approvals.write({ ...record, status: 'pending' });
    expect(await approvals.claim(record.sessionKey, record.id, ticket('second'))).toBe(false);
  });

  it('reports no ticket for an unclaimed request', async () => {
    const { approvals } = context().store;
    const record = pendingApproval();
    await approvals.create(record);
    expect(await approvals.ticket(record.sessionKey, record.id)).toBeUndefined();
  });

  it('refuses ids and session keys that could escape their place', async () => {
    const { approvals } = context().store;
    const refusal = await approvals
      .read('cli-1a2b3c4d5e6f-default', '../../etc/passwd')
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApprovalError);
    expect((refusal as ApprovalError).refusal).toBe('invalid_id');
    await expect(approvals.read('../etc', pendingApproval().id)).rejects.toThrow(
      ConfigurationError,
    );
    await expect(approvals.locate('a/b')).rejects.toThrow(ApprovalError);
    await expect(approvals.list({ sessionKey: '../etc' })).rejects.toThrow(ConfigurationError);
  });
}
