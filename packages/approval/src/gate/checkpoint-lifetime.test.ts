import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { msg, type SessionRef } from '@tiny-claw/core';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listApprovals, readApproval } from '../store/approval-queries.js';
import {
  bashCall,
  cliSessionOf,
  contextFor,
  gateHarness,
  pauseCall,
  pausedState,
  recordingNext,
  refusalOf,
} from './__fixtures__/approval-fixtures.js';

let ws: TempWorkspace;
let session: SessionRef;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'a.txt': 'a\n' });
  session = cliSessionOf(ws.dir);
});
afterEach(async () => {
  await ws.cleanup();
});

async function checkpointFiles(stateDir: string): Promise<string[]> {
  return readdir(join(stateDir, 'sessions', session.key, 'checkpoints')).catch(() => []);
}

describe.each(['file', 'memory'] as const)('a checkpoint in %s stores', (kind) => {
  it('is deleted once the approved call has run (consumed)', async () => {
    const harness = await gateHarness(kind);
    try {
      const { approvalId, checkpointId } = await pauseCall(harness.gate, session, bashCall('ls'));
      const claimed = await harness.gate.claim(approvalId, {
        decision: 'approve',
        actor: 'cli:me',
        session,
      });
      expect(await harness.stores.runStates.read(session.key, checkpointId)).toBeDefined();
      await harness.gate.complete(claimed, 'consumed');
      expect(await harness.stores.runStates.read(session.key, checkpointId)).toBeUndefined();
    } finally {
      await harness.cleanup();
    }
  });

  it('is deleted once the rejection was handed to the model (rejected)', async () => {
    const harness = await gateHarness(kind);
    try {
      const { approvalId, checkpointId } = await pauseCall(harness.gate, session, bashCall('ls'));
      const claimed = await harness.gate.claim(approvalId, {
        decision: 'reject',
        actor: 'cli:me',
        session,
      });
      await harness.gate.complete(claimed, 'rejected');
      expect(await harness.stores.runStates.read(session.key, checkpointId)).toBeUndefined();
    } finally {
      await harness.cleanup();
    }
  });

  it('is deleted when a decision finds the request expired', async () => {
    const harness = await gateHarness(kind, { timeoutSeconds: 60 });
    try {
      const { approvalId, checkpointId } = await pauseCall(harness.gate, session, bashCall('ls'));
      harness.clock.advance(60_000);
      const refusal = await refusalOf(
        harness.gate.claim(approvalId, { decision: 'approve', actor: 'cli:me', session }),
      );
      expect(refusal.refusal).toBe('expired');
      expect(await harness.stores.runStates.read(session.key, checkpointId)).toBeUndefined();
    } finally {
      await harness.cleanup();
    }
  });

  it('of an expired request is deleted at the next pause in its session, which records it expired', async () => {
    const harness = await gateHarness(kind, { timeoutSeconds: 60 });
    try {
      const first = await pauseCall(harness.gate, session, bashCall('ls'));
      harness.clock.advance(61_000);
      const second = await pauseCall(harness.gate, session, bashCall('pwd', 'call_2'));
      expect(await harness.stores.runStates.read(session.key, first.checkpointId)).toBeUndefined();
      expect((await harness.stores.approvals.read(session.key, first.approvalId))?.status).toBe(
        'expired',
      );
      expect(await harness.stores.runStates.read(session.key, second.checkpointId)).toBeDefined();
      const refusal = await refusalOf(
        harness.gate.claim(first.approvalId, { decision: 'approve', actor: 'cli:me', session }),
      );
      expect(refusal.refusal).toBe('expired');
    } finally {
      await harness.cleanup();
    }
  });

  it('is deleted when the decision fails after the claim (the call changed), and nothing runs', async () => {
    const harness = await gateHarness(kind);
    try {
      const result = await harness.gate.middleware(
        contextFor(bashCall('ls'), session),
        recordingNext().next,
      );
      if (result.status !== 'suspended') throw new Error('expected a pause');
      await harness.gate.saveCheckpoint(
        result.checkpointId,
        pausedState(session, [bashCall('rm -rf /')]),
      );
      const refusal = await refusalOf(
        harness.gate.claim(result.approvalId, { decision: 'approve', actor: 'cli:me', session }),
      );
      expect(refusal.refusal).toBe('tampered');
      expect(await harness.stores.runStates.read(session.key, result.checkpointId)).toBeUndefined();
    } finally {
      await harness.cleanup();
    }
  });

  it('of a request still pending and not expired is kept by every sweep', async () => {
    const harness = await gateHarness(kind, { timeoutSeconds: 60 });
    try {
      const first = await pauseCall(harness.gate, session, bashCall('ls'));
      harness.clock.advance(59_000);
      await pauseCall(harness.gate, session, bashCall('pwd', 'call_2'));
      expect(await harness.stores.runStates.read(session.key, first.checkpointId)).toBeDefined();
      const claimed = await harness.gate.claim(first.approvalId, {
        decision: 'approve',
        actor: 'cli:me',
        session,
      });
      expect(claimed.state.batch?.calls[0]?.call.arguments).toEqual({ command: 'ls' });
    } finally {
      await harness.cleanup();
    }
  });
});

describe('expiry racing a decision', () => {
  it('leaves the request to whoever claimed it first: a sweep after the claim deletes nothing', async () => {
    const harness = await gateHarness('file', { timeoutSeconds: 60 });
    try {
      const first = await pauseCall(harness.gate, session, bashCall('ls'));
      const claimed = await harness.gate.claim(first.approvalId, {
        decision: 'approve',
        actor: 'cli:me',
        session,
      });
      harness.clock.advance(120_000);
      await pauseCall(harness.gate, session, bashCall('pwd', 'call_2'));
      expect(await harness.stores.runStates.read(session.key, first.checkpointId)).toBeDefined();
      await harness.gate.complete(claimed, 'consumed');
      expect((await harness.stores.approvals.read(session.key, first.approvalId))?.status).toBe(
        'consumed',
      );
    } finally {
      await harness.cleanup();
    }
  });
});

describe('listing and reading requests', () => {
  it('shows an expired request as found, then records it expired and deletes its checkpoint', async () => {
    const harness = await gateHarness('file', { timeoutSeconds: 60 });
    try {
      const { approvalId, checkpointId } = await pauseCall(harness.gate, session, bashCall('ls'));
      const record = await harness.stores.approvals.read(session.key, approvalId);
      if (!record) throw new Error('no record');
      await harness.stores.approvals.write({
        ...record,
        createdAt: '2020-01-01T00:00:00.000Z',
        expiresAt: '2020-01-01T01:00:00.000Z',
      });
      const listed = await listApprovals(harness.stores);
      expect(listed.map((r) => r.status)).toEqual(['pending']);
      expect(await checkpointFiles(harness.stateDir)).toEqual([]);
      expect((await readApproval(harness.stores, approvalId))?.status).toBe('expired');
      expect(await harness.stores.runStates.read(session.key, checkpointId)).toBeUndefined();
    } finally {
      await harness.cleanup();
    }
  });

  it('deletes checkpoints left behind by requests already answered', async () => {
    const harness = await gateHarness('file');
    try {
      const { approvalId, checkpointId } = await pauseCall(harness.gate, session, bashCall('ls'));
      const record = await harness.stores.approvals.read(session.key, approvalId);
      if (!record) throw new Error('no record');
      await harness.stores.approvals.write({ ...record, status: 'consumed' });
      expect(await checkpointFiles(harness.stateDir)).toEqual([`${checkpointId}.json`]);
      await readApproval(harness.stores, approvalId);
      expect(await checkpointFiles(harness.stateDir)).toEqual([]);
    } finally {
      await harness.cleanup();
    }
  });
});

describe('the checkpoint file on disk', () => {
  it('holds no raw secret a tool printed before the pause, and the approved call still resumes', async () => {
    const key = 'sk-proj-Zq8vN3xR5tW2yB7mK4pL9sD1fG6hJ0cA';
    const harness = await gateHarness('file');
    try {
      const cat = bashCall('cat config.js', 'call_0');
      const waiting = bashCall('rm build.log');
      const result = await harness.gate.middleware(
        contextFor(waiting, session),
        recordingNext().next,
      );
      if (result.status !== 'suspended') throw new Error('expected a pause');
      const state = pausedState(session, [waiting]);
      state.messages.splice(
        1,
        0,
        msg.assistant('', [cat]),
        msg.tool(cat, `module.exports = { apiKey: '${key}' };`),
      );
      await harness.gate.saveCheckpoint(result.checkpointId, state);
      const file = join(
        harness.stateDir,
        'sessions',
        session.key,
        'checkpoints',
        `${result.checkpointId}.json`,
      );
      const text = await readFile(file, 'utf8');
      expect(text).not.toContain(key);
      expect(text).toContain('[REDACTED:openai-api-key]');
      const claimed = await harness.gate.claim(result.approvalId, {
        decision: 'approve',
        actor: 'cli:me',
        session,
      });
      expect(claimed.callId).toBe(waiting.id);
    } finally {
      await harness.cleanup();
    }
  });
});
