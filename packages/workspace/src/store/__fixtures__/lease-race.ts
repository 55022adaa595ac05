/**
 * One contender in a lease race between processes: opens the file leases of a state dir, says
 * `ready`, and for each `go <key>` line on stdin tries to take the lease on that key and prints
 * `won <key>` or `lost <key>`. Its leases are never released, like a process that keeps working.
 *
 * Usage: node --conditions=@tiny-claw/source --import tsx lease-race.ts <stateDir> <holder>
 */
import { createInterface } from 'node:readline';
import { nullLogger } from '@tiny-claw/core';
import { FileLeases } from '../file-leases.js';

const [stateDir, holder] = process.argv.slice(2);
if (!stateDir || !holder) {
  process.stderr.write('usage: lease-race.ts <stateDir> <holder>\n');
  process.exit(2);
}
const leases = new FileLeases(stateDir, { logger: nullLogger, clock: () => new Date() });

const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) {
  const key = /^go (\S+)$/.exec(line.trim())?.[1];
  if (key === undefined) continue;
  const lease = await leases.acquire(key, holder, 60_000);
  process.stdout.write(`${lease ? 'won' : 'lost'} ${key}\n`);
}
