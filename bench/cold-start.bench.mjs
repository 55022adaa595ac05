// Cold start of `tiny-claw --version` and `--help` against the floor `node -e 0` measured in the
// same run, the three interleaved so machine noise hits them alike (goal: ≤ 1.3× the floor).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { quick, repoRoot, report, round, stats } from './lib.mjs';

const bin = join(repoRoot, 'apps/cli/bin/tiny-claw.js');
const runs = Number(process.env.BENCH_RUNS ?? (quick ? 7 : 15));
const warmup = 2;

function once(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
  return ms;
}

const commands = { floor: ['-e', '0'], version: [bin, '--version'], help: [bin, '--help'] };
const samples = { floor: [], version: [], help: [] };
for (let i = 0; i < runs + warmup; i += 1) {
  for (const [name, args] of Object.entries(commands)) {
    const ms = once(args);
    if (i >= warmup) samples[name].push(ms);
  }
}
const floor = stats(samples.floor).median;
const ratio = (name) => stats(samples[name]).median / floor;
// Quick mode: a regression that makes start-up ~3× the floor fails; noise does not.
const gate = quick ? { gate: { max: 2.5 } } : {};
report(
  'cold-start',
  [
    { measure: 'node -e 0 (floor), median', figure: round(floor, 1), unit: 'ms', goal: '—' },
    {
      measure: 'tiny-claw --version, median',
      figure: round(stats(samples.version).median, 1),
      unit: 'ms',
      goal: '—',
    },
    {
      measure: 'tiny-claw --version / floor',
      figure: round(ratio('version'), 3),
      unit: '×',
      goal: '≤ 1.3×',
      pass: ratio('version') <= 1.3,
      ...gate,
    },
    {
      measure: 'tiny-claw --help, median',
      figure: round(stats(samples.help).median, 1),
      unit: 'ms',
      goal: '—',
    },
    {
      measure: 'tiny-claw --help / floor',
      figure: round(ratio('help'), 3),
      unit: '×',
      goal: '≤ 1.3×',
      pass: ratio('help') <= 1.3,
      ...gate,
    },
  ],
  { runs, samples },
);
