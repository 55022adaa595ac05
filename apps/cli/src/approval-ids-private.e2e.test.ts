import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from '@tiny-claw/core';
import { type FakeLlmServer, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApprovalWorld, createApprovalWorld } from './__fixtures__/approval-cli.js';

// An approval id is the person's handle on a decision. Through the real binary and a real
// provider client talking to a loopback model: the model is never sent one, and the session
// memory (which later runs show the model) never keeps one; the person is still shown them.
let world: ApprovalWorld;
let server: FakeLlmServer;

beforeEach(async () => {
  world = await createApprovalWorld({ 'a.txt': 'alpha\n' });
  server = await startFakeLlmServer();
});
afterEach(async () => {
  await server.close();
  await world.cleanup();
});

function openai(): Record<string, string> {
  return {
    TINY_CLAW_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-test-not-a-real-key-000',
    OPENAI_BASE_URL: server.openaiBaseUrl,
  };
}

const writeEnv = (content: string) => ({
  kind: 'turn' as const,
  toolCalls: [{ name: 'write', arguments: { path: '.env', content } }],
});

function parsed(stdout: string, stderr: string): RunResult {
  try {
    return JSON.parse(stdout) as RunResult;
  } catch {
    throw new Error(`no RunResult JSON on stdout:\n${stderr}`);
  }
}

describe('approval ids', () => {
  it('never reach the model or the session memory across a pause, an approval, a second pause and a rejection', async () => {
    // Run 1 pauses on a write; the approval resumes it, the model writes again and the run pauses
    // a second time; the rejection hands the model its answer; run 2 starts from the memory.
    server.enqueue(
      writeEnv('A=1\n'),
      writeEnv('A=2\n'),
      { kind: 'turn', text: 'leaving it as it is' },
      { kind: 'turn', text: 'nothing to do' },
    );
    const first = await world.cli(['run', 'set A in .env', '--json'], openai());
    expect(first.code, first.stderr).toBe(4);
    const paused = parsed(first.stdout, first.stderr);
    const firstId = paused.approvalId as string;
    expect(first.stderr).toContain(`tiny-claw approvals approve ${firstId}`);

    const approved = await world.cli(['approvals', 'approve', firstId, '--json'], openai());
    expect(approved.code, approved.stderr).toBe(4);
    const pausedAgain = parsed(approved.stdout, approved.stderr);
    const secondId = pausedAgain.approvalId as string;
    expect(secondId).not.toBe(firstId);
    expect(approved.stderr).toContain(`tiny-claw approvals reject ${secondId}`);

    const rejected = await world.cli(
      ['approvals', 'reject', secondId, 'keep', 'A=1', '--json'],
      openai(),
    );
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(parsed(rejected.stdout, rejected.stderr).text).toBe('leaving it as it is');

    const later = await world.cli(['run', 'anything left?', '--json'], openai());
    expect(later.code, later.stderr).toBe(0);

    expect(server.requests).toHaveLength(4);
    const sent = JSON.stringify(server.requests.map((request) => request.body));
    expect(sent).toContain('rejected by cli:');
    expect(sent).toContain('last_response');
    const memory = await readFile(
      join(world.stateDir, 'sessions', paused.sessionKey, 'memory.jsonl'),
      'utf8',
    );
    expect(memory).toContain('this tool call needs approval');
    for (const secret of [
      firstId,
      secondId,
      paused.checkpointId as string,
      pausedAgain.checkpointId as string,
    ]) {
      expect(sent).not.toContain(secret);
      expect(memory).not.toContain(secret);
    }
  });
});
