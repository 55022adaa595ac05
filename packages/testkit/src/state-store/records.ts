import { createHash, randomBytes } from 'node:crypto';
import type { ApprovalRecord, CheckpointRecord, RunState, SessionRef } from '@tiny-claw/core';

const call = { id: 'call_1', name: 'shell', arguments: { command: 'ls' } };

/**
 * A valid pending approval request for a `shell` call (`ls`) in a CLI session of `/repo`, with
 * fresh ids: what a state store's `approvals` must keep as it is given.
 *
 * @example
 * await store.approvals.create(pendingApproval({ sessionKey: 'cli-1a2b3c4d5e6f-other' }));
 */
export function pendingApproval(overrides: Partial<ApprovalRecord> = {}): ApprovalRecord {
  return {
    schemaVersion: 1,
    id: `ap_${randomBytes(16).toString('base64url')}`,
    checkpointId: `cp_${randomBytes(16).toString('base64url')}`,
    sessionKey: 'cli-1a2b3c4d5e6f-default',
    sessionSource: 'cli',
    sessionExternalId: 'default',
    chatId: null,
    requestedBy: 'cli:alice',
    workdir: '/repo',
    toolCallId: call.id,
    toolName: call.name,
    arguments: { ...call.arguments },
    toolCallHash: createHash('sha256').update(JSON.stringify(call)).digest('hex'),
    preImage: {},
    riskReasons: ['runs a command'],
    status: 'pending',
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2026-01-01T01:00:00.000Z',
    ...overrides,
  };
}

/**
 * The paused run's state `record` waits on: a valid checkpoint record for it.
 *
 * @example
 * await store.runStates.save(checkpointOf(record));
 */
export function checkpointOf(record: ApprovalRecord): CheckpointRecord {
  const session: SessionRef = {
    key: record.sessionKey,
    source: 'cli',
    externalId: record.sessionExternalId,
    displayName: record.sessionExternalId,
    workdir: record.workdir,
  };
  const state: RunState = {
    schemaVersion: 2,
    runId: 'run_1',
    session,
    prompt: 'do the thing',
    mode: 'act',
    maxSteps: 20,
    step: 1,
    messages: [
      { role: 'user', content: 'do the thing' },
      { role: 'assistant', content: '', toolCalls: [call] },
    ],
    tools: ['shell'],
    lastText: '',
    emptyTurns: 0,
    failures: {},
    usage: null,
    costUsd: null,
    unpricedCall: false,
    model: null,
    batch: { step: 1, calls: [{ call, index: 0, status: 'pending' }] },
  };
  return {
    schemaVersion: 1,
    id: record.checkpointId,
    sessionKey: record.sessionKey,
    approvalId: record.id,
    createdAt: record.createdAt,
    state,
  };
}
