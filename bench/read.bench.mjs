// The read tool on big files: a 10 MB file read (output capped) and 8 parallel-safe
// reads of 1 MB files in one turn, through the real executor, against one read alone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, report, round, stats } from './lib.mjs';

// The executor is internal to core: the bench loads its built modules directly.
const { executeBatch } = await import(
  join(repoRoot, 'packages/core/dist/executor/tool-executor.js')
);
const { ToolRegistry } = await import(join(repoRoot, 'packages/core/dist/tool-registry.js'));
const { EventBus } = await import(join(repoRoot, 'packages/core/dist/observe/event-bus.js'));
const core = await import(join(repoRoot, 'packages/core/dist/index.js'));
const tools = await import(join(repoRoot, 'packages/tools/dist/index.js'));
const runs = Number(process.env.BENCH_RUNS ?? 15);

const dir = mkdtempSync(join(tmpdir(), 'tc-bench-read-'));
const line = `${'x'.repeat(99)}\n`;
writeFileSync(join(dir, 'big.txt'), line.repeat(100_000)); // 10 MB
for (let i = 0; i < 8; i += 1) writeFileSync(join(dir, `m${i}.txt`), line.repeat(10_000)); // 1 MB each

const [read] = tools.workspaceTools({ workdir: dir, enabled: ['read'] });
const registry = new ToolRegistry().register(read);
const ctx = {
  workdir: dir,
  signal: new AbortController().signal,
  toolCallId: 'b',
  visibleTools: ['read'],
};
const options = {
  registry,
  runId: 'bench',
  step: 1,
  workdir: dir,
  signal: ctx.signal,
  visibleTools: ['read'],
  maxParallel: 8,
  events: new EventBus([], core.nullLogger),
  logger: core.nullLogger,
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

const big = await time(() => read.run(read.parse({ path: 'big.txt' }), ctx));
const one = await time(() =>
  executeBatch([{ id: 'a', name: 'read', arguments: { path: 'm0.txt' } }], options),
);
const eight = await time(() =>
  executeBatch(
    Array.from({ length: 8 }, (_, i) => ({
      id: `c${i}`,
      name: 'read',
      arguments: { path: `m${i}.txt` },
    })),
    options,
  ),
);
rmSync(dir, { recursive: true, force: true });
report('read', [
  {
    measure: 'read of a 10 MB file (output capped), median ms',
    value: round(big.median),
    goal: '≤ 30 ms',
    ok: big.median <= 30,
  },
  { measure: 'one read of a 1 MB file, median ms', value: round(one.median), goal: '—' },
  {
    measure: '8 parallel reads of 1 MB files, median ms (ratio)',
    value: `${round(eight.median)} (${round(eight.median / one.median)}×)`,
    goal: '≤ 1.3× one read',
    ok: eight.median <= 1.3 * one.median,
  },
]);
