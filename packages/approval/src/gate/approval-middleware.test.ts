import { writeFile } from 'node:fs/promises';
import type { SessionRef, ToolExecutionContext } from '@tiny-claw/core';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bashCall,
  chatSessionOf,
  cliSessionOf,
  contextFor,
  gateHarness,
  grantOf,
  pauseCall,
  recordingNext,
} from './__fixtures__/approval-fixtures.js';
import type { ApprovalAssessment } from './approval-middleware.js';

let ws: TempWorkspace;
let session: SessionRef;
let harness: Awaited<ReturnType<typeof gateHarness>>;
const policy: Record<string, ApprovalAssessment['verdict']> = {};

beforeEach(async () => {
  ws = await createTempWorkspace({ 'notes.md': 'hello\n' });
  session = cliSessionOf(ws.dir);
  for (const key of Object.keys(policy)) delete policy[key];
  Object.assign(policy, { bash: 'approval_required', edit: 'approval_required', rm: 'deny' });
  harness = await gateHarness('file', {
    assess: async (call) => {
      const verdict = policy[call.name] ?? 'allow';
      return {
        verdict,
        reasons: verdict === 'allow' ? [] : [`${call.name} is risky`, 'second reason'],
      };
    },
  });
});

afterEach(async () => {
  await harness.cleanup();
  await ws.cleanup();
});

describe('the approval middleware', () => {
  it('runs a call the policy allows', async () => {
    const { ran, next } = recordingNext();
    const result = await harness.gate.middleware(
      contextFor({ id: 'c', name: 'read', arguments: {} }, session),
      next,
    );
    expect(result).toEqual({
      status: 'completed',
      output: { content: 'ran read', isError: false },
    });
    expect(ran.map((call) => call.name)).toEqual(['read']);
  });

  it('refuses a call the policy denies, with its reasons, and runs nothing', async () => {
    const { ran, next } = recordingNext();
    const result = await harness.gate.middleware(
      contextFor({ id: 'c', name: 'rm', arguments: {} }, session),
      next,
    );
    expect(result.status).toBe('denied');
    expect(result.output).toEqual({
      content: 'this tool call was denied by the risk policy: rm is risky; second reason',
      isError: true,
      failure: { kind: 'denied', code: 'risk_policy_denied' },
    });
    expect(ran).toEqual([]);
    expect(await harness.stores.approvals.list()).toEqual([]);
  });

  it('pauses a call that needs approval: stores the request, and keeps its ids out of the output', async () => {
    const { ran, next } = recordingNext();
    const result = await harness.gate.middleware(
      contextFor(bashCall('rm -rf build'), session, { requestedBy: 'cli:alice' }),
      next,
    );
    expect(ran).toEqual([]);
    if (result.status !== 'suspended') throw new Error(`expected a pause, got ${result.status}`);
    expect(result.approvalId).toMatch(/^ap_[A-Za-z0-9_-]{22}$/);
    expect(result.checkpointId).toMatch(/^cp_[A-Za-z0-9_-]{22}$/);
    expect(result.output).toEqual({
      content: [
        'this tool call needs approval',
        'tool=bash',
        'reasons=bash is risky; second reason',
        'expires_at=2026-01-01T01:00:00.000Z',
      ].join('\n'),
      isError: true,
    });
    // A pause is not a failure: its reasons travel with the request the run state keeps.
    expect(result.request?.reasons).toEqual(['bash is risky', 'second reason']);
    expect(JSON.stringify(result.output)).not.toContain(result.approvalId);
    expect(JSON.stringify(result.output)).not.toContain(result.checkpointId);
    expect(await harness.stores.approvals.read(session.key, result.approvalId)).toMatchObject({
      schemaVersion: 1,
      id: result.approvalId,
      checkpointId: result.checkpointId,
      sessionKey: session.key,
      sessionSource: 'cli',
      sessionExternalId: 'default',
      chatId: null,
      requestedBy: 'cli:alice',
      workdir: ws.dir,
      toolCallId: 'call_1',
      toolName: 'bash',
      arguments: { command: 'rm -rf build' },
      preImage: {},
      riskReasons: ['bash is risky', 'second reason'],
      status: 'pending',
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T01:00:00.000Z',
    });
  });

  it('records who asked as unknown when the run does not say, and where the run was asked for', async () => {
    const chat = chatSessionOf(ws.dir, 'oc_123');
    const result = await harness.gate.middleware(
      contextFor(bashCall('rm x'), chat, { origin: 'oc_123' }),
      recordingNext().next,
    );
    if (result.status !== 'suspended') throw new Error('expected a pause');
    expect(await harness.stores.approvals.read(chat.key, result.approvalId)).toMatchObject({
      requestedBy: 'unknown',
      chatId: 'oc_123',
      sessionSource: 'feishu',
    });
  });

  it('records the pre-image of the file an edit would change', async () => {
    const call = {
      id: 'call_1',
      name: 'edit',
      arguments: { path: 'notes.md', old_text: 'hello', new_text: 'bye' },
    };
    const { approvalId } = await pauseCall(harness.gate, session, call);
    const record = await harness.stores.approvals.read(session.key, approvalId);
    expect(Object.keys(record?.preImage ?? {})).toEqual([ws.path('notes.md')]);
  });

  it('refuses, rather than pauses, a call that needs approval in a run without a session', async () => {
    const { ran, next } = recordingNext();
    const { session: _none, ...ctx } = contextFor(bashCall('rm x'), session);
    const result = await harness.gate.middleware(ctx, next);
    expect(result.status).toBe('denied');
    expect(result.output.failure).toEqual({ kind: 'denied', code: 'no_session' });
    expect(result.output.content).toContain('no session');
    expect(ran).toEqual([]);
  });

  it('refuses, rather than pauses, a call that needs approval in a run that cannot pause, and stores no request', async () => {
    const { ran, next } = recordingNext();
    const ctx = { ...contextFor(bashCall('rm x'), session), pausable: false };
    const result = await harness.gate.middleware(ctx, next);
    expect(result.status).toBe('denied');
    expect(result.output.failure).toEqual({ kind: 'denied', code: 'not_pausable' });
    expect(result.output.content).toContain('subagent, which cannot wait for a person');
    expect(result.output.content).toContain('bash is risky');
    expect(ran).toEqual([]);
    expect(await harness.stores.approvals.list()).toEqual([]);
  });

  it('lets the approved call through once, with its claim token, without pausing it again', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('rm -rf build'));
    const claimed = await harness.gate.claim(approvalId, {
      decision: 'approve',
      actor: 'cli:me',
      session,
    });
    const { ran, next } = recordingNext();
    const result = await harness.gate.middleware(
      contextFor(bashCall('rm -rf build'), session, grantOf(claimed)),
      next,
    );
    expect(result.status).toBe('completed');
    expect(ran).toHaveLength(1);
    expect(await harness.stores.approvals.list()).toHaveLength(1);

    // The token is spent: the same metadata again is just another risky call.
    const again = await harness.gate.middleware(
      contextFor(bashCall('rm -rf build'), session, grantOf(claimed)),
      next,
    );
    expect(again.status).toBe('suspended');
    expect(ran).toHaveLength(1);
  });

  it('hands the tool no approval grant', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('ls'));
    const claimed = await harness.gate.claim(approvalId, {
      decision: 'approve',
      actor: 'cli:me',
      session,
    });
    let seen: ToolExecutionContext | undefined;
    await harness.gate.middleware(
      contextFor(bashCall('ls'), session, grantOf(claimed)),
      async (ctx) => {
        seen = ctx;
        return { status: 'completed', output: { content: '', isError: false } };
      },
    );
    expect(seen).toBeDefined();
    expect(seen?.approval).toBeUndefined();
    expect(JSON.stringify(seen?.metadata)).not.toContain(claimed.grant?.token ?? 'no grant');
  });

  it('does not let a claim token through with another call (other id or other arguments)', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('ls'));
    const claimed = await harness.gate.claim(approvalId, {
      decision: 'approve',
      actor: 'cli:me',
      session,
    });
    const { ran, next } = recordingNext();
    const other = await harness.gate.middleware(
      contextFor(bashCall('rm -rf /', 'call_1'), session, grantOf(claimed)),
      next,
    );
    expect(other.status).toBe('suspended');
    expect(ran).toEqual([]);
  });

  it('does not let a made-up claim token through', async () => {
    const { ran, next } = recordingNext();
    const result = await harness.gate.middleware(
      contextFor(bashCall('rm x'), session, {
        approval: { approvalId: 'ap_AAAAAAAAAAAAAAAAAAAAAA', token: 'ct_made_up' },
      }),
      next,
    );
    expect(result.status).toBe('suspended');
    expect(ran).toEqual([]);
  });

  it('lets a policy that now denies the call win over an earlier approval', async () => {
    const { approvalId } = await pauseCall(harness.gate, session, bashCall('cat notes.md'));
    const claimed = await harness.gate.claim(approvalId, {
      decision: 'approve',
      actor: 'cli:me',
      session,
    });
    policy.bash = 'deny';
    const { ran, next } = recordingNext();
    const result = await harness.gate.middleware(
      contextFor(bashCall('cat notes.md'), session, grantOf(claimed)),
      next,
    );
    expect(result.status).toBe('denied');
    expect(result.output.failure).toEqual({ kind: 'denied', code: 'risk_policy_denied' });
    expect(ran).toEqual([]);
  });

  it('refuses the approved edit when its file changed between the claim and the run', async () => {
    const call = {
      id: 'call_1',
      name: 'edit',
      arguments: { path: 'notes.md', old_text: 'hello', new_text: 'bye' },
    };
    const { approvalId } = await pauseCall(harness.gate, session, call);
    const claimed = await harness.gate.claim(approvalId, {
      decision: 'approve',
      actor: 'cli:me',
      session,
    });
    await writeFile(ws.path('notes.md'), 'hello there\n');
    const { ran, next } = recordingNext();
    const result = await harness.gate.middleware(contextFor(call, session, grantOf(claimed)), next);
    expect(result.status).toBe('denied');
    expect(result.output).toMatchObject({ failure: { kind: 'denied', code: 'drifted' } });
    expect(result.output).not.toHaveProperty('metadata');
    expect(result.output.content).toContain('file changed since approval was requested');
    expect(ran).toEqual([]);
  });
});
