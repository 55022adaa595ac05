// Per-step harness overhead: a scripted model that answers instantly with one small `read` per
// step, 500 steps, through a real agent (createAgent: the loop, executor, event bus, read tool,
// file store with memory and usage lines).
// Goals: median ≤ 8 ms, p95 ≤ 25 ms, slope < 0.05 ms/step; max RSS ≤ 100 MB at 20 steps.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, report, round, slope, stats } from './lib.mjs';

const core = await import(join(repoRoot, 'packages/core/dist/index.js'));
const tools = await import(join(repoRoot, 'packages/tools/dist/index.js'));
const steps = Number(process.env.BENCH_STEPS ?? 500);

const dir = mkdtempSync(join(tmpdir(), 'tc-bench-'));
writeFileSync(join(dir, 'small.txt'), 'one\ntwo\nthree\n');
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
  store: core.createFileStore(join(dir, '.state')),
  maxSteps: steps + 1,
});
let rssAt20 = 0;
const sampler = setInterval(() => {
  if (provider.calls <= 20) rssAt20 = Math.max(rssAt20, process.memoryUsage().rss);
}, 1);
const result = await agent.run('go', { session: 'bench' });
clearInterval(sampler);
rmSync(dir, { recursive: true, force: true });
if (result.stopReason !== 'final') throw new Error(`unexpected stop ${result.stopReason}`);

const gaps = stamps.slice(1).map((t, i) => t - stamps[i]);
const s = stats(gaps.slice(5));
const k = slope(
  gaps.map((_, i) => i),
  gaps,
);
report('per-step', [
  {
    measure: `per-step overhead over ${steps} steps, median ms`,
    value: round(s.median, 3),
    goal: '≤ 8 ms',
    ok: s.median <= 8,
  },
  {
    measure: 'per-step overhead, p95 ms',
    value: round(s.p95, 3),
    goal: '≤ 25 ms',
    ok: s.p95 <= 25,
  },
  { measure: 'slope, ms per step', value: round(k, 5), goal: '< 0.05', ok: k < 0.05 },
  {
    measure: 'max RSS during the first 20 steps, MB',
    value: round(rssAt20 / 2 ** 20, 1),
    goal: '≤ 100 MB',
    ok: rssAt20 <= 100 * 2 ** 20,
  },
]);
