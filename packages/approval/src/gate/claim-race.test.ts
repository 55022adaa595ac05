import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApprovalGate } from '@tiny-claw/core';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { createFileStore } from '@tiny-claw/workspace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashCall, cliSessionOf, fakeAssess, pauseCall } from './__fixtures__/approval-fixtures.js';
import { createApprovalGate } from './create-approval-gate.js';

const here = dirname(fileURLToPath(import.meta.url));
const contender = join(here, '__fixtures__', 'claim-race.ts');
const packageDir = join(here, '..', '..');

let ws: TempWorkspace;
let stateDir: string;
let gate: ApprovalGate;

beforeEach(async () => {
  ws = await createTempWorkspace();
  stateDir = await mkdtemp(join(tmpdir(), 'tiny-claw-claim-race-'));
  // The system clock, like the contenders: they are separate processes.
  gate = createApprovalGate({
    store: createFileStore(stateDir),
    assess: fakeAssess({ bash: 'approval_required' }),
  });
});

afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
  await ws.cleanup();
});

interface Contender {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  outcome: Promise<{ actor: string; outcome: string }>;
}

/** Start one contender process; it is ready once it has loaded the gate and waits for `go`. */
function startContender(args: string[]): Contender {
  const child = spawn(
    process.execPath,
    ['--conditions=@tiny-claw/source', '--import', 'tsx', contender, ...args],
    {
      cwd: packageDir,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.includes('ready\n')) markReady();
  });
  const outcome = new Promise<{ actor: string; outcome: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{')) {
        reject(new Error(`contender exited ${code}: ${stdout}\n${stderr}`));
        return;
      }
      resolve(JSON.parse(last) as { actor: string; outcome: string });
    });
  });
  // A contender that dies before it is ready must not leave the test waiting forever.
  outcome.catch(() => markReady());
  return { child, ready, outcome };
}

describe('two processes claiming the same approval at once', () => {
  it('lets exactly one win, every time, over twenty rounds', async () => {
    const session = cliSessionOf(ws.dir);
    for (let round = 0; round < 20; round += 1) {
      const { approvalId } = await pauseCall(gate, session, bashCall(`rm -rf build-${round}`));
      const marker = ws.path(`winners-${round}.txt`);
      const contenders = ['cli:a', 'cli:b'].map((actor) =>
        startContender([stateDir, approvalId, JSON.stringify(session), marker, actor]),
      );
      await Promise.all(contenders.map((c) => c.ready));
      // Both have loaded everything; release them together.
      for (const c of contenders) c.child.stdin.end('go\n');
      const outcomes = await Promise.all(contenders.map((c) => c.outcome));

      expect(outcomes.map((o) => o.outcome).sort()).toEqual(['already_handled', 'won']);
      const winner = outcomes.find((o) => o.outcome === 'won')?.actor;
      expect(await readFile(marker, 'utf8')).toBe(`${winner}\n`);
      expect(await createFileStore(stateDir).approvals.read(session.key, approvalId)).toMatchObject(
        {
          status: 'consumed',
          decidedBy: winner,
        },
      );
    }
  }, 180_000);
});
