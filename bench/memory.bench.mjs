// Memory of `tiny-claw run` driven by a loopback model that asks for one small `read` per step:
// - max RSS over a 20-step run: the process's VmHWM from /proc/<pid>/status, read at every
//   request and every few milliseconds until it exits (goal ≤ 100 MB);
// - RSS growth over a BENCH_MEMORY_STEPS-step run (default 1,000): VmRSS read when each request
//   arrives (the CLI is then idle, waiting for the model), least-squares slope over the steps after
//   the first 100, minus the growth of the retained history (the request body the model receives
//   grows by what the run keeps) (goal ≤ 0.1 MB/step).
// Linux only (/proc). The floor, node idling for 50 ms, is measured the same way for scale; quick
// mode runs 200 steps and gates the 20-step maximum as a ratio to that floor.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quick, repoRoot, report, round, slope } from './lib.mjs';
import { startLoopbackModel } from './loopback-model.mjs';

const bin = join(repoRoot, 'apps/cli/bin/tiny-claw.js');
const longSteps = Number(process.env.BENCH_MEMORY_STEPS ?? (quick ? 200 : 1000));
const MB = 2 ** 20;

const home = mkdtempSync(join(tmpdir(), 'tc-bench-memory-'));
const workdir = join(home, 'work');
mkdirSync(workdir);
for (let i = 0; i < 20; i += 1) {
  writeFileSync(join(workdir, `f${i}.txt`), `file ${i}\n${'some text on a line\n'.repeat(10)}`);
}

/** VmRSS and VmHWM of `pid` in bytes, or undefined once it has exited. */
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) =>
      Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1]) * 1024;
    const rss = field('VmRSS');
    const hwm = field('VmHWM');
    return Number.isFinite(rss) && Number.isFinite(hwm) ? { rss, hwm } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Spawn `node args` with `env`; `steps` tool steps are asked for (0: none). Resolves with the
 * highest VmHWM seen and, per request, the VmRSS at its arrival and its body size.
 */
async function measure(args, env, steps) {
  const samples = [];
  let child;
  let hwm = 0;
  const note = () => {
    const memory = child && memoryOf(child.pid);
    if (memory) hwm = Math.max(hwm, memory.hwm);
    return memory;
  };
  const model = await startLoopbackModel({
    toolSteps: steps,
    onRequest: ({ n }) => {
      samples[n - 1] = { rss: note()?.rss ?? Number.NaN, bytes: 0 };
    },
    onBody: ({ n, bytes }) => {
      if (samples[n - 1]) samples[n - 1].bytes = bytes;
    },
  });
  child = spawn(process.execPath, args(model.baseUrl), {
    cwd: workdir,
    env: env(model.baseUrl),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const poller = setInterval(note, 5);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearInterval(poller);
  await model.close();
  if (code !== 0) throw new Error(`${args('…').join(' ')} exited ${code}: ${stderr.slice(-500)}`);
  return { hwm, samples };
}

// The user's environment (as a user would run it), with tiny-claw's own settings replaced.
const baseEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(TINY_CLAW_|OPENAI_|ANTHROPIC_)/.test(name)),
);
const cliEnv = (baseUrl) => ({
  ...baseEnv,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  TINY_CLAW_STATE_DIR: join(home, 'state'),
  TINY_CLAW_PROVIDER: 'openai',
  OPENAI_API_KEY: 'sk-bench',
  OPENAI_BASE_URL: baseUrl,
});
const cliArgs = (steps) => () => [bin, 'run', 'read the files', '--max-steps', String(steps + 1)];

const floor = await measure(
  () => ['-e', 'setTimeout(() => {}, 50)'],
  () => baseEnv,
  0,
);
// One run first, as every run after the first one after an install: it writes the executable's
// code cache (under HOME), which later runs read instead of compiling.
await measure(cliArgs(1), cliEnv, 1);
const short = await measure(cliArgs(20), cliEnv, 20);
if (short.samples.length !== 21)
  throw new Error(`expected 21 requests, saw ${short.samples.length}`);
const long = await measure(cliArgs(longSteps - 1), cliEnv, longSteps - 1);
rmSync(home, { recursive: true, force: true });

const from = Math.min(100, Math.floor(longSteps / 10));
const tail = long.samples.slice(from);
const steps = tail.map((_, i) => from + i + 1);
const rssSlope = slope(
  steps,
  tail.map((s) => s.rss / MB),
);
const historySlope = slope(
  steps,
  tail.map((s) => s.bytes / MB),
);
const beyond = rssSlope - historySlope;
const first = long.samples[from];
const last = long.samples.at(-1);
const maxRatio = short.hwm / floor.hwm;
report(
  'memory',
  [
    { measure: 'node (floor), max RSS', figure: round(floor.hwm / MB, 1), unit: 'MB', goal: '—' },
    {
      measure: 'max RSS over a 20-step run',
      figure: round(short.hwm / MB, 1),
      unit: 'MB',
      goal: '≤ 100 MB',
      pass: short.hwm <= 100 * MB,
    },
    {
      measure: 'max RSS over a 20-step run / floor',
      figure: round(maxRatio, 3),
      unit: '×',
      goal: '—',
      // Quick mode: 2× the floor here; the unbundled CLI with wasm tier-up was 2.7×.
      ...(quick ? { gate: { max: 3 } } : {}),
    },
    {
      measure: `RSS at step ${from + 1} / ${longSteps}`,
      figure: `${round(first.rss / MB, 1)} / ${round(last.rss / MB, 1)} MB`,
      goal: '—',
    },
    {
      measure: `request body at step ${from + 1} / ${longSteps}`,
      figure: `${round(first.bytes / 1024, 1)} / ${round(last.bytes / 1024, 1)} KB`,
      goal: '—',
    },
    { measure: 'RSS slope', figure: round(rssSlope, 4), unit: 'MB/step', goal: '—' },
    // Over fewer steps the heap's own warm-up dominates the slope: only the full run is judged.
    quick
      ? {
          measure: `RSS slope beyond retained history, ${longSteps} steps`,
          figure: round(beyond, 4),
          unit: 'MB/step',
        }
      : {
          measure: 'RSS slope beyond retained history',
          figure: round(beyond, 4),
          unit: 'MB/step',
          goal: '≤ 0.1 MB/step',
          pass: beyond <= 0.1,
        },
  ],
  {
    steps: longSteps,
    floorMaxRssMb: round(floor.hwm / MB, 2),
    maxRssMb20: round(short.hwm / MB, 2),
    maxRssMbLong: round(long.hwm / MB, 2),
    rssSlopeMbPerStep: round(rssSlope, 5),
    historySlopeMbPerStep: round(historySlope, 5),
    slopeBeyondHistoryMbPerStep: round(beyond, 5),
    rssMbPerStep: long.samples.map((s) => round(s.rss / MB, 2)),
    requestKbPerStep: long.samples.map((s) => round(s.bytes / 1024, 2)),
  },
);
