// An approval decided in another process. The first process runs until a risky call (writing
// `.env`) pauses the run, and saves the run's state as JSON; a second process — a reviewer's, a
// day later — reads it back, approves, and the same run continues: the call runs once, and only
// if nothing changed since it was asked for.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assessCall, createApprovalGate } from '@tiny-claw/approval';
import { createAgent, type RunState } from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { workspaceTools } from '@tiny-claw/tools';
import { createFileStore } from '@tiny-claw/workspace';

function buildAgent(workdir: string, stateDir: string, provider: ScriptedProvider) {
  const store = createFileStore(stateDir); // requests and paused runs live here
  const approvals = createApprovalGate({
    store,
    assess: (call, ctx) => assessCall(call, { workdir: ctx.workdir }),
  });
  const tools = workspaceTools({ workdir, enabled: ['read', 'write'] });
  return { agent: createAgent({ provider, tools, workdir, store, approvals }), store };
}

const [phase, workdirArg, stateDirArg] = process.argv.slice(2);

if (phase === 'resume' && workdirArg && stateDirArg) {
  // The reviewer's process: nothing in memory from the first one.
  const state = JSON.parse(readFileSync(join(stateDirArg, 'paused-run.json'), 'utf8')) as RunState;
  const waiting = state.batch?.calls.find((call) => call.status === 'awaiting_approval');
  const { agent, store } = buildAgent(
    workdirArg,
    stateDirArg,
    new ScriptedProvider({ turns: [{ text: 'The token is set.' }] }),
  );
  const id = waiting?.approval?.approvalId ?? '';
  const resumed = await agent.resume(state, [{ id, approve: true }], { actor: 'reviewer' });
  await store.close();
  console.log(`[reviewer, pid ${process.pid}] ${resumed.stopReason}: ${resumed.text}`);
  console.log(
    `[reviewer] .env now holds: ${readFileSync(join(workdirArg, '.env'), 'utf8').trim()}`,
  );
} else {
  const workdir = mkdtempSync(join(tmpdir(), 'tc-approval-work-'));
  const stateDir = mkdtempSync(join(tmpdir(), 'tc-approval-state-'));
  const { agent, store } = buildAgent(
    workdir,
    stateDir,
    new ScriptedProvider({
      turns: [
        { tool_calls: [{ name: 'write', arguments: { path: '.env', content: 'TOKEN=1\n' } }] },
      ],
    }),
  );
  const paused = await agent.run('set the token');
  await store.close();
  const asked = paused.state?.batch?.calls.find((call) => call.status === 'awaiting_approval');
  console.log(
    `[agent, pid ${process.pid}] ${paused.stopReason}: ${asked?.approval?.reasons.join('; ')}`,
  );
  writeFileSync(join(stateDir, 'paused-run.json'), JSON.stringify(paused.state));

  const self = fileURLToPath(import.meta.url);
  const reviewer = execFileSync(
    process.execPath,
    [...process.execArgv, self, 'resume', workdir, stateDir],
    {
      encoding: 'utf8',
    },
  );
  process.stdout.write(reviewer);
}
