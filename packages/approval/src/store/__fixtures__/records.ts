import { spawnSync } from 'node:child_process';
import type {
  ApprovalRecord,
  CheckpointRecord,
  RunState,
  SessionRef,
  ToolCall,
} from '@tiny-claw/core';
import { newApprovalId, newCheckpointId } from '../new-record-id.js';
import { toolCallHash } from '../tool-call-hash.js';

/** A CLI session of `workdir` named `name`. */
export function cliSessionOf(workdir: string, name = 'default'): SessionRef {
  return { key: `cli-1a2b3c4d5e6f-${name}`, source: 'cli', externalId: name, displayName: name, workdir };
}

/** The run state of a run paused on `calls` (none answered yet). */
export function pausedState(session: SessionRef, calls: ToolCall[]): RunState {
  return {
    schemaVersion: 2,
    runId: 'run_1',
    session,
    prompt: 'do the thing',
    mode: 'act',
    maxSteps: 20,
    step: 1,
    messages: [
      { role: 'user', content: 'do the thing' },
      { role: 'assistant', content: '', toolCalls: calls },
    ],
    tools: ['bash', 'read', 'write', 'edit'],
    lastText: '',
    emptyTurns: 0,
    failures: {},
    usage: null,
    costUsd: null,
    unpricedCall: false,
    model: null,
    batch: { step: 1, calls: calls.map((call, index) => ({ call, index, status: 'pending' })) },
  };
}

/** A bash call. */
export function bashCall(command: string, id = 'call_1'): ToolCall {
  return { id, name: 'bash', arguments: { command } };
}

/** A valid pending request for `ls` in session `sessionKey` (a CLI session of `/repo`). */
export function pendingRecord(overrides: Partial<ApprovalRecord> = {}): ApprovalRecord {
  const call = bashCall('ls');
  return {
    schemaVersion: 1,
    id: newApprovalId(),
    checkpointId: newCheckpointId(),
    sessionKey: 'cli-1a2b3c4d5e6f-default',
    sessionSource: 'cli',
    sessionExternalId: 'default',
    chatId: null,
    requestedBy: 'cli:alice',
    workdir: '/repo',
    toolCallId: call.id,
    toolName: call.name,
    arguments: call.arguments,
    toolCallHash: toolCallHash(call, '/repo'),
    preImage: {},
    riskReasons: ['runs a command'],
    status: 'pending',
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2026-01-01T01:00:00.000Z',
    ...overrides,
  };
}

/** A valid checkpoint for `record`. */
export function checkpointFor(record: ApprovalRecord): CheckpointRecord {
  return {
    schemaVersion: 1,
    id: record.checkpointId,
    sessionKey: record.sessionKey,
    approvalId: record.id,
    createdAt: record.createdAt,
    state: pausedState(cliSessionOf(record.workdir), [bashCall('ls')]),
  };
}

/** The pid of a process that has exited (and been reaped): a claimant that died. */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (child.pid === undefined) throw new Error('could not start a child process');
  return child.pid;
}
