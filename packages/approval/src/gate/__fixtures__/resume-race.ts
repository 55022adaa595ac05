/**
 * One contender in a race to resume the same paused run from its state, in its own process: it
 * builds an agent over the shared state dir, says `ready`, and for every `go <approvalId> <state
 * file>` line on stdin reads the state, resumes it with an approval, and prints its outcome as one
 * JSON line (`won` when its resume ran the call, else the refusal). The approved call appends the
 * contender's name to the marker file, so the test can count how often it really ran.
 *
 * Usage: node --conditions=@tiny-claw/source --import tsx resume-race.ts <stateDir> <workdir> <marker file> <actor>
 */
import { appendFile, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { ApprovalError, createAgent, defineTool, type RunState } from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { z } from 'zod';
import { createFileStore } from '@tiny-claw/workspace';
import { createApprovalGate } from '../create-approval-gate.js';

const [stateDir, workdir, marker, actor] = process.argv.slice(2);
if (!stateDir || !workdir || !marker || !actor) {
  process.stderr.write('usage: resume-race.ts <stateDir> <workdir> <marker> <actor>\n');
  process.exit(2);
}

/** The risky tool of the race: it only leaves a mark, once per run of it. */
const stamp = defineTool({
  name: 'stamp',
  description: 'Leave a mark.',
  parameters: z.object({ round: z.number() }),
  run: async ({ round }) => {
    await appendFile(marker, `${round} ${actor}\n`);
    return `stamped round ${round}`;
  },
});

const agent = createAgent({
  // After the call the model answers; an exhausted script answers with a fixed text.
  provider: new ScriptedProvider({ turns: [] }),
  tools: [stamp],
  workdir,
  approvals: createApprovalGate({
    store: createFileStore(stateDir),
    assess: async (call) =>
      call.name === 'stamp'
        ? { verdict: 'approval_required', reasons: ['leaves a mark'] }
        : { verdict: 'allow', reasons: [] },
  }),
});

const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) {
  const [command, approvalId, stateFile] = line.trim().split(' ');
  if (command === 'quit') break;
  if (command !== 'go' || !approvalId || !stateFile) continue;
  try {
    const state = JSON.parse(await readFile(stateFile, 'utf8')) as RunState;
    const result = await agent.resume(state, [{ id: approvalId, approve: true }], { actor });
    process.stdout.write(`${JSON.stringify({ actor, outcome: 'won', stop: result.stopReason })}\n`);
  } catch (error) {
    const outcome = error instanceof ApprovalError ? error.refusal : `error: ${String(error)}`;
    process.stdout.write(`${JSON.stringify({ actor, outcome })}\n`);
  }
}
lines.close();
