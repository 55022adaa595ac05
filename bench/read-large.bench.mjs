// The read tool on a 10 MB file: the first page (output capped at 50 KiB) and a page near the end,
// called directly on the built tool with its read ledger, median of BENCH_RUNS. The floor is
// `readFileSync(path, 'utf8')` of the same file in the same run.
// Goal: ≤ 30 ms.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, report, round, stats } from './lib.mjs';

const tools = await import(join(repoRoot, 'packages/tools/dist/index.js'));
const runs = Number(process.env.BENCH_RUNS ?? 15);

const dir = mkdtempSync(join(tmpdir(), 'tc-bench-read-'));
const line = `${'x'.repeat(99)}\n`;
writeFileSync(join(dir, 'big.txt'), line.repeat(100_000)); // 10 MB, 100,000 lines

const [read] = tools.workspaceTools({ workdir: dir, enabled: ['read'] });
const ctx = {
  workdir: dir,
  runId: 'bench',
  signal: new AbortController().signal,
  toolCallId: 'b',
  visibleTools: ['read'],
};

async function time(fn) {
  const samples = [];
  for (let i = 0; i < runs + 2; i += 1) {
    const start = performance.now();
    await fn();
    if (i >= 2) samples.push(performance.now() - start);
  }
  return stats(samples);
}

const floor = await time(() => readFileSync(join(dir, 'big.txt'), 'utf8'));
const first = await time(async () => {
  const out = await read.run(read.parse({ path: 'big.txt' }), ctx);
  if (out.isError || out.metadata.totalLines !== 100_000)
    throw new Error(out.content.slice(0, 300));
});
const last = await time(() => read.run(read.parse({ path: 'big.txt', offset: 99_000 }), ctx));
rmSync(dir, { recursive: true, force: true });
report(
  'read-large',
  [
    {
      measure: 'readFileSync of the 10 MB file as UTF-8 (floor), median',
      figure: round(floor.median, 2),
      unit: 'ms',
      goal: '—',
    },
    {
      measure: 'read of a 10 MB file, first page, median',
      figure: round(first.median, 2),
      unit: 'ms',
      goal: '≤ 30 ms',
      pass: first.median <= 30,
    },
    {
      measure: 'read of a 10 MB file, page at line 99,000, median',
      figure: round(last.median, 2),
      unit: 'ms',
      goal: '≤ 30 ms',
      pass: last.median <= 30,
    },
  ],
  { runs },
);
