import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { createApplication, loadSettings } from '@tiny-claw/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalWorld, bin, createApprovalWorld } from './__fixtures__/approval-cli.js';

// Two people approving the same request at the same moment, from two processes.
const ROUNDS = 20;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

let world: ApprovalWorld;
let ids: string[];

beforeAll(async () => {
  world = await createApprovalWorld({ 'a.txt': 'alpha\n' });
  // The requests are made in-process (one paused run each); only the decisions race as processes.
  const risky = (round: number) => ({
    tool_calls: [
      { name: 'bash', arguments: { command: `chmod 644 a.txt && echo ran >> round-${round}.log` } },
    ],
  });
  const app = await createApplication(
    loadSettings({ env: world.env, cwd: world.ws.dir, homeDir: homedir() }),
    {
      provider: new ScriptedProvider({
        turns: Array.from({ length: ROUNDS }, (_, round) => risky(round)),
      }),
      logger: silent,
    },
  );
  ids = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const result = await app.run({ prompt: `round ${round}`, requestedBy: 'cli:test' });
    expect(result.stopReason).toBe('approval_required');
    ids.push(result.approvalId as string);
  }
  await app.close();
});
afterAll(() => world.cleanup());

function approve(id: string, script: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bin, 'approvals', 'approve', id], {
    cwd: world.ws.dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      NO_COLOR: '1',
      ...world.env,
      TINY_CLAW_SCRIPT: script,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ code, stderr }));
  });
}

describe('two approvals of one request at the same moment', () => {
  it(`run the command exactly once, ${ROUNDS} times out of ${ROUNDS}: one wins, the other is told it was handled`, async () => {
    const script = await world.script([{ text: 'done' }]);
    for (const [round, id] of ids.entries()) {
      // Both processes are started before either is awaited.
      const outcomes = await Promise.all([approve(id, script), approve(id, script)]);
      const codes = outcomes.map((o) => o.code).sort();
      expect(codes, outcomes.map((o) => o.stderr).join('\n---\n')).toEqual([0, 1]);
      const loser = outcomes.find((o) => o.code === 1);
      expect(loser?.stderr).toMatch(/already (handled|used)/);
      expect(await readFile(world.ws.path(`round-${round}.log`), 'utf8')).toBe('ran\n');
    }
  }, 120_000);
});
