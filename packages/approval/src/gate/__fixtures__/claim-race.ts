/**
 * One contender in a claim race between processes: loads the gate, says `ready`, waits for `go`
 * on stdin, claims the approval, appends its actor to the marker file only if it won (then
 * completes the claim), and prints its outcome as one JSON line.
 *
 * Usage: node --conditions=@tiny-claw/source --import tsx claim-race.ts <stateDir> <approvalId> <session JSON> <marker file> <actor>
 */
import { appendFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { ApprovalError, type SessionRef } from '@tiny-claw/core';
import { createFileStore } from '@tiny-claw/workspace';
import { createApprovalGate } from '../create-approval-gate.js';

const [stateDir, approvalId, sessionJson, marker, actor] = process.argv.slice(2);
if (!stateDir || !approvalId || !sessionJson || !marker || !actor) {
  process.stderr.write('usage: claim-race.ts <stateDir> <approvalId> <session JSON> <marker> <actor>\n');
  process.exit(2);
}
const session = JSON.parse(sessionJson) as SessionRef;
const gate = createApprovalGate({
  store: createFileStore(stateDir),
  assess: async () => ({ verdict: 'allow', reasons: [] }),
});

const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) {
  if (line.trim() !== 'go') continue;
  try {
    const claimed = await gate.claim(approvalId, { decision: 'approve', actor, session });
    await appendFile(marker, `${actor}\n`);
    // Finish like a real run; a winner exiting while still `claimed` would count as a crash.
    await gate.complete(claimed, 'consumed');
    process.stdout.write(`${JSON.stringify({ actor, outcome: 'won' })}\n`);
  } catch (error) {
    const outcome = error instanceof ApprovalError ? error.refusal : `error: ${String(error)}`;
    process.stdout.write(`${JSON.stringify({ actor, outcome })}\n`);
  }
  break;
}
lines.close();
