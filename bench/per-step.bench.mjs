// Per-step harness overhead: a scripted model that answers instantly with one small `read` per
// step, through a real agent (createAgent: the loop, executor, event bus, read tool, file store
// with memory and usage lines). The gap between two model calls is the harness's own time.
// The floor, measured in the same process: a plain Node loop doing what any harness must per step
// (read the file, append a JSON line).
// Goals: median ≤ 8 ms, p95 ≤ 25 ms, slope < 0.05 ms/step; max RSS ≤ 100 MB at 20 steps.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quick, repoRoot, report, round, slope, stats } from './lib.mjs';

const core = await import(join(repoRoot, 'packages/core/dist/index.js'));
const tools = await import(join(repoRoot, 'packages/tools/dist/index.js'));
const workspace = await import(join(repoRoot, 'packages/workspace/dist/index.js'));
const steps = Number(process.env.BENCH_STEPS ?? (quick ? 150 : 500));

const dir = mkdtempSync(join(tmpdir(), 'tc-bench-'));
writeFileSync(join(dir, 'small.txt'), 'one\ntwo\nthree\n');

/** The floor: per step, a file read and one JSON line appended, nothing else. */
async function floorGaps(n) {
  const log = join(dir, 'floor.jsonl');
  const gaps = [];
  let last = performance.now();
  for (let i = 0; i < n; i += 1) {
    const content = await readFile(join(dir, 'small.txt'), 'utf8');
    await appendFile(log, `${JSON.stringify({ role: 'tool', id: `c${i}`, content })}\n`);
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }
  return gaps;
}

const stamps = [];
const provider = {
  name: 'instant',
  calls: 0,
  async complete() {
    stamps.push(performance.now());
    this.calls += 1;
    if (this.calls > steps)
      return { message: { role: 'assistant', content: 'done' }, provider: 'instant' };
    return {
      message: {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `c${this.calls}`, name: 'read', arguments: { path: 'small.txt' } }],
      },
      provider: 'instant',
    };
  },
};
const agent = core.createAgent({
  provider,
  tools: tools.workspaceTools({ workdir: dir, enabled: ['read'] }),
  workdir: dir,
  store: workspace.createFileStore(join(dir, '.state')),
  maxSteps: steps + 1,
});
let rssAt20 = 0;
const sampler = setInterval(() => {
  if (provider.calls <= 20) rssAt20 = Math.max(rssAt20, process.memoryUsage().rss);
}, 1);
await floorGaps(50); // warm-up
const result = await agent.run('go', { session: 'bench' });
clearInterval(sampler);
const floor = stats((await floorGaps(Math.min(steps, 300))).slice(5));
rmSync(dir, { recursive: true, force: true });
if (result.stopReason !== 'final') throw new Error(`unexpected stop ${result.stopReason}`);

const gaps = stamps.slice(1).map((t, i) => t - stamps[i]);
const s = stats(gaps.slice(5));
const k = slope(
  gaps.map((_, i) => i),
  gaps,
);
const ratio = s.median / floor.median;
report(
  'per-step',
  [
    {
      measure: `per-step overhead over ${steps} steps, median`,
      figure: round(s.median, 3),
      unit: 'ms',
      goal: '≤ 8 ms',
      pass: s.median <= 8,
    },
    {
      measure: 'per-step overhead, p95',
      figure: round(s.p95, 3),
      unit: 'ms',
      goal: '≤ 25 ms',
      pass: s.p95 <= 25,
    },
    {
      measure: 'slope of the gap over the steps',
      figure: round(k, 5),
      unit: 'ms/step',
      goal: '< 0.05',
      pass: k < 0.05,
    },
    {
      measure: 'Node floor (read + append a JSON line), median',
      figure: round(floor.median, 3),
      unit: 'ms',
      goal: '—',
    },
    {
      measure: 'per-step median / Node floor',
      figure: round(ratio, 2),
      unit: '×',
      goal: '—',
      // Quick mode: today ≈ 3-6×; 25× means the loop grew several times slower.
      ...(quick ? { gate: { max: 25 } } : {}),
    },
    {
      row: 'memory',
      measure: 'max RSS during the first 20 steps (in-process agent)',
      figure: round(rssAt20 / 2 ** 20, 1),
      unit: 'MB',
      goal: '≤ 100 MB',
      pass: rssAt20 <= 100 * 2 ** 20,
    },
  ],
  { steps, floor, gap: s },
);
