// Cold start of `tiny-claw --version` and `--help` against the floor `node -e 0` measured in the
// same run (goal: ≤ 1.3× the floor).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot, report, round, stats } from './lib.mjs';

const bin = join(repoRoot, 'apps/cli/bin/tiny-claw.js');
const runs = Number(process.env.BENCH_RUNS ?? 15);

function time(args) {
  const samples = [];
  for (let i = 0; i < runs + 2; i += 1) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}`);
    if (i >= 2) samples.push(ms);
  }
  return stats(samples);
}

const floor = time(['-e', '0']);
const version = time([bin, '--version']);
const help = time([bin, '--help']);
report('cold-start', [
  { measure: 'node -e 0 (floor), median ms', value: round(floor.median), goal: '—' },
  {
    measure: 'tiny-claw --version, median ms (ratio)',
    value: `${round(version.median)} (${round(version.median / floor.median)}×)`,
    goal: '≤ 1.3× floor',
    ok: version.median <= 1.3 * floor.median,
  },
  {
    measure: 'tiny-claw --help, median ms (ratio)',
    value: `${round(help.median)} (${round(help.median / floor.median)}×)`,
    goal: '≤ 1.3× floor',
    ok: help.median <= 1.3 * floor.median,
  },
]);
