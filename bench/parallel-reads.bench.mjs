// Parallel reads: one model turn asking for 8 reads of different 1 MB files against a turn asking
// for one, through a real agent (createAgent + workspaceTools: the loop, the executor, the read
// tool with its read ledger). The figure is the gap a user waits for between the model's answer
// and the next request: the harness's and the tools' time, nothing of the model's.
// Goal: the 8-read turn ≤ 1.3× the one-read turn.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quick, repoRoot, report, round, stats } from './lib.mjs';

const core = await import(join(repoRoot, 'packages/core/dist/index.js'));
const tools = await import(join(repoRoot, 'packages/tools/dist/index.js'));
const rounds = Number(process.env.BENCH_RUNS ?? (quick ? 12 : 40));
const fanOut = 8;

const dir = mkdtempSync(join(tmpdir(), 'tc-bench-par-'));
// Source-like lines of varied length, 1 MiB per file.
function megabyte(seed) {
  const lines = [];
  let size = 0;
  for (let i = 0; size < 2 ** 20; i += 1) {
    const line = `  const value${seed}_${i} = compute(input, ${i % 97}, '${'x'.repeat(i % 60)}');`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`.slice(0, 2 ** 20);
}
for (let i = 0; i < fanOut; i += 1) writeFileSync(join(dir, `m${i}.txt`), megabyte(i));

/** A model that asks for `count` reads in its first turn and answers at once in the second. */
function provider(count, gaps) {
  let calls = 0;
  let answered = 0;
  return {
    name: 'instant',
    async complete() {
      calls += 1;
      if (calls === 2) gaps.push(performance.now() - answered);
      if (calls > 1)
        return { message: { role: 'assistant', content: 'done' }, provider: 'instant' };
      answered = performance.now();
      return {
        message: {
          role: 'assistant',
          content: '',
          toolCalls: Array.from({ length: count }, (_, i) => ({
            id: `c${i}`,
            name: 'read',
            arguments: { path: `m${(i + calls) % fanOut}.txt` },
          })),
        },
        provider: 'instant',
      };
    },
  };
}

const readTools = tools.workspaceTools({ workdir: dir, enabled: ['read'] });
// The same tool without the read ledger: no SHA-256 of each file (informational, to show its share).
const noLedger = [tools.createReadTool({ workdir: dir })];
async function turn(count, gaps, maxParallelTools, ledger = true) {
  const agent = core.createAgent({
    provider: provider(count, gaps),
    tools: ledger ? readTools : noLedger,
    workdir: dir,
    projectContext: false,
    maxParallelTools,
  });
  const result = await agent.run('read them', { session: 'bench' });
  if (result.stopReason !== 'final') throw new Error(`unexpected stop ${result.stopReason}`);
}

const variants = {
  one: [1, 8],
  eight: [fanOut, 8],
  'eight, default cap 4': [fanOut, undefined],
  ...(quick ? {} : { 'one, no ledger': [1, 8, false], 'eight, no ledger': [fanOut, 8, false] }),
};
const gaps = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
const warm = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let i = 0; i < 3; i += 1)
  for (const [k, [n, cap]] of Object.entries(variants)) await turn(n, warm[k], cap);
// Interleaved, so drift in the machine hits every variant alike.
for (let i = 0; i < rounds; i += 1) {
  const order = i % 2 === 0 ? Object.entries(variants) : Object.entries(variants).reverse();
  for (const [k, [n, cap, ledger]] of order) await turn(n, gaps[k], cap, ledger);
}
// The floor, in the same run: reading the 8 files and hashing each (the least any reader that
// fingerprints what it showed must do), with nothing else.
const floorSamples = [];
for (let i = 0; i < rounds + 3; i += 1) {
  const started = performance.now();
  for (let f = 0; f < fanOut; f += 1) {
    createHash('sha256')
      .update(readFileSync(join(dir, `m${f}.txt`)))
      .digest('hex');
  }
  if (i >= 3) floorSamples.push(performance.now() - started);
}
const floor = stats(floorSamples).median;
rmSync(dir, { recursive: true, force: true });

const one = stats(gaps.one).median;
const eight = stats(gaps.eight).median;
const capped = stats(gaps['eight, default cap 4']).median;
report(
  'parallel-reads',
  [
    {
      measure: 'one read of a 1 MB file, turn gap median',
      figure: round(one, 3),
      unit: 'ms',
      goal: '—',
    },
    {
      measure: `${fanOut} reads of 1 MB files, turn gap median`,
      figure: round(eight, 3),
      unit: 'ms',
      goal: '—',
    },
    {
      measure: `${fanOut} reads / one read (${fanOut} at once)`,
      figure: round(eight / one, 3),
      unit: '×',
      goal: '≤ 1.3×',
      pass: eight / one <= 1.3,
    },
    {
      measure: `floor: read and hash the ${fanOut} files, nothing else`,
      figure: round(floor, 3),
      unit: 'ms',
      goal: '—',
    },
    {
      measure: `${fanOut} reads / floor`,
      figure: round(eight / floor, 3),
      unit: '×',
      goal: '—',
      // Quick mode: today about 2×; decoding and splitting whole files again, or a per-read cost
      // that grew several times over, lands well past 5×.
      ...(quick ? { gate: { max: 5 } } : {}),
    },
    {
      measure: `${fanOut} reads / one read (default cap of 4 at once)`,
      figure: round(capped / one, 3),
      unit: '×',
      goal: '—',
    },
    ...(quick
      ? []
      : [
          {
            measure: `${fanOut} reads / one read, without the read ledger's SHA-256`,
            figure: round(
              stats(gaps['eight, no ledger']).median / stats(gaps['one, no ledger']).median,
              3,
            ),
            unit: '×',
            goal: '— (informational)',
          },
        ]),
  ],
  { rounds, gapsMs: gaps },
);
