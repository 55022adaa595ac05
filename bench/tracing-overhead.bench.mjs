// Tracing overhead: the same 200-step scripted run (an instant model, one small `read` per step,
// the file store's usage lines and memory) with TINY_CLAW_TRACE_MODE=metadata vs off, in one process on
// the built packages. The traced run includes writing its trace file (atomic, fsync'd); a third
// variant with a no-op recorder splits the tracer's CPU from that write. Runs alternate so drift in
// the machine hits every variant alike. Also: redacting 1 MB of text (goal: < 50 ms).
// Goal: metadata ≤ 5% slower than off.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { repoRoot, report, round, stats } from './lib.mjs';

const core = await import(join(repoRoot, 'packages/core/dist/index.js'));
// The real read tool when the tools package is built; a plain file read otherwise.
const tools = await import(join(repoRoot, 'packages/tools/dist/index.js')).catch(() => undefined);
const tracing = await import(join(repoRoot, 'packages/tracing/dist/index.js'));
const steps = Number(process.env.BENCH_STEPS ?? 200);
const rounds = Number(process.env.BENCH_RUNS ?? 20);

const dir = mkdtempSync(join(tmpdir(), 'tc-bench-trace-'));
const stateDir = join(dir, '.state');
writeFileSync(join(dir, 'small.txt'), 'one\ntwo\nthree\n');

function instantProvider() {
  return {
    name: 'instant',
    calls: 0,
    async complete() {
      this.calls += 1;
      const usage = { inputTokens: 100, outputTokens: 10, totalTokens: 110 };
      if (this.calls > steps) {
        return { message: { role: 'assistant', content: 'done' }, provider: 'instant', usage };
      }
      return {
        message: {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: `c${this.calls}`, name: 'read', arguments: { path: 'small.txt' } }],
        },
        provider: 'instant',
        usage,
      };
    },
  };
}

const plainRead = core.defineTool({
  name: 'read',
  description: 'read a file',
  parallelSafe: true,
  parameters: z.object({ path: z.string() }),
  run: async ({ path }) => readFile(join(dir, path), 'utf8'),
});
const readTools = tools ? tools.workspaceTools({ workdir: dir, enabled: ['read'] }) : [plainRead];
const store = core.createFileStore(stateDir);

const variants = {
  off: () => tracing.createTracer({ stateDir, mode: 'off' }),
  metadata: () => tracing.createTracer({ stateDir, mode: 'metadata' }),
  'metadata, no file': () =>
    tracing.createTracer({ stateDir, mode: 'metadata', recorders: [{ record: async () => {} }] }),
  replay: () => tracing.createTracer({ stateDir, mode: 'replay' }),
};

async function timedRun(variant) {
  const tracer = variants[variant]();
  const agent = core.createAgent({
    provider: instantProvider(),
    tools: readTools,
    workdir: dir,
    store,
    tracer,
    maxSteps: steps + 1,
  });
  const started = performance.now();
  const result = await agent.run('go', { session: 'bench' });
  const elapsed = performance.now() - started;
  if (result.stopReason !== 'final') throw new Error(`unexpected stop ${result.stopReason}`);
  if (variant === 'metadata' && !result.tracePath) throw new Error('no trace was written');
  return elapsed;
}

const names = Object.keys(variants);
// Warm-up: JIT, the salt file, directories.
for (let i = 0; i < 3; i += 1) for (const name of names) await timedRun(name);
const samples = Object.fromEntries(names.map((name) => [name, []]));
for (let i = 0; i < rounds; i += 1) {
  for (const name of i % 2 === 0 ? names : [...names].reverse()) {
    samples[name].push(await timedRun(name));
  }
}

const median = (name) => stats(samples[name]).median;
const off = median('off');
const metadata = median('metadata');
const overhead = (metadata - off) / off;
const cpuOnly = median('metadata, no file');

// 1 MB of tool output with a few secrets in it, through the replay sanitiser.
const redactor = new tracing.Redactor((secret) =>
  tracing.keyedHash(Buffer.alloc(32), secret).slice(0, 8),
);
const filler = 'const value = computeSomething(input, 42); // ordinary source line\n';
const secret = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
let text = '';
while (text.length < 2 ** 20) text += text.length % 65536 < filler.length ? `${secret}\n` : filler;
text = text.slice(0, 2 ** 20);
const redactions = [];
for (let i = 0; i < 10; i += 1) {
  const started = performance.now();
  tracing.toTraceValue(text, { redactor, maxStringChars: 2 ** 20 });
  redactions.push(performance.now() - started);
}
const redactMs = stats(redactions).median;

rmSync(dir, { recursive: true, force: true });
report(
  'tracing-overhead',
  [
    {
      measure: `${steps}-step run, tracing off, median ms`,
      value: round(off, 1),
      goal: tools ? '(real read tool)' : '(plain read)',
    },
    {
      measure: `${steps}-step run, metadata mode, median ms`,
      value: round(metadata, 1),
      goal: '—',
    },
    {
      measure: 'metadata vs off overhead, %',
      value: round(overhead * 100, 2),
      goal: '≤ 5 %',
      ok: overhead <= 0.05,
    },
    {
      measure: 'metadata tracer CPU per step, µs (no file write)',
      value: round(((cpuOnly - off) / steps) * 1000, 1),
      goal: '—',
    },
    {
      measure: 'writing the trace file, ms per run (est.)',
      value: round(metadata - cpuOnly, 2),
      goal: '—',
    },
    {
      measure: 'replay vs off overhead, % (informational)',
      value: round(((median('replay') - off) / off) * 100, 2),
      goal: '—',
    },
    {
      measure: 'redacting 1 MB of tool output, median ms',
      value: round(redactMs, 2),
      goal: '< 50 ms',
      ok: redactMs < 50,
    },
  ],
  { steps, rounds, realReadTool: Boolean(tools), samples },
);
