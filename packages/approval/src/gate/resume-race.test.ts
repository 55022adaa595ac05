import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createAgent, defineTool } from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { createFileStore } from '@tiny-claw/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApprovalGate } from './create-approval-gate.js';

const here = dirname(fileURLToPath(import.meta.url));
const contenderScript = join(here, '__fixtures__', 'resume-race.ts');
const packageDir = join(here, '..', '..');
const ROUNDS = 20;

let ws: TempWorkspace;
let stateDir: string;
let marker: string;

beforeEach(async () => {
  ws = await createTempWorkspace();
  stateDir = await mkdtemp(join(tmpdir(), 'tiny-claw-resume-race-'));
  marker = join(stateDir, 'marks.txt');
  await writeFile(marker, '');
});

afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
  await ws.cleanup();
});

interface Contender {
  child: ChildProcessWithoutNullStreams;
  /** The next line the contender prints. */
  next(): Promise<string>;
}

/** Start a contender process and wait until it has built its agent. */
async function startContender(actor: string): Promise<Contender> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@tiny-claw/source',
      '--import',
      'tsx',
      contenderScript,
      stateDir,
      ws.dir,
      marker,
      actor,
    ],
    { cwd: packageDir, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done) throw new Error(`contender ${actor} ended early: ${stderr}`);
    return line.value;
  };
  expect(await next()).toBe('ready');
  return { child, next };
}

/** The paused state of a run whose one call (`stamp` of `round`) waits for approval. */
async function pausedRun(round: number) {
  const agent = createAgent({
    provider: new ScriptedProvider({
      turns: [{ tool_calls: [{ name: 'stamp', arguments: { round } }] }],
    }),
    tools: [
      defineTool({
        name: 'stamp',
        description: 'Leave a mark.',
        parameters: z.object({ round: z.number() }),
        run: () => 'never runs here',
      }),
    ],
    workdir: ws.dir,
    approvals: createApprovalGate({
      store: createFileStore(stateDir),
      assess: async () => ({ verdict: 'approval_required', reasons: ['leaves a mark'] }),
    }),
  });
  const paused = await agent.run(`round ${round}`);
  expect(paused.stopReason).toBe('approval_required');
  const file = join(stateDir, `state-${round}.json`);
  await writeFile(file, JSON.stringify(paused.state));
  return { approvalId: paused.approvalId as string, file };
}

describe('two processes resuming the same paused run from its state at once', () => {
  it('runs the approved call exactly once and tells the other it was already decided, over twenty rounds', async () => {
    const contenders = await Promise.all([startContender('alice'), startContender('bob')]);
    try {
      for (let round = 1; round <= ROUNDS; round += 1) {
        const { approvalId, file } = await pausedRun(round);
        for (const { child } of contenders) child.stdin.write(`go ${approvalId} ${file}\n`);
        const outcomes = (await Promise.all(contenders.map((c) => c.next()))).map(
          (line) => JSON.parse(line) as { actor: string; outcome: string; stop?: string },
        );
        const winners = outcomes.filter((o) => o.outcome === 'won');
        expect(winners, `round ${round}: ${JSON.stringify(outcomes)}`).toHaveLength(1);
        expect(winners[0]?.stop).toBe('final');
        const loser = outcomes.find((o) => o.outcome !== 'won');
        expect(loser?.outcome, `round ${round}`).toBe('already_handled');
        const marks = (await readFile(marker, 'utf8')).trim().split('\n');
        expect(marks.filter((line) => line.startsWith(`${round} `))).toEqual([
          `${round} ${winners[0]?.actor}`,
        ]);
      }
      expect((await readFile(marker, 'utf8')).trim().split('\n')).toHaveLength(ROUNDS);
    } finally {
      for (const { child } of contenders) {
        child.stdin.end('quit\n');
        child.kill();
      }
    }
  }, 180_000);
});
