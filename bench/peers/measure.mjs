// Run one CLI once against a fresh mock model and turn the mock's request log into the figures.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { startMockLlm } from './mock-llm.mjs';

const RSS_POLL_MS = 10;

function readProc(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process ended between listing and reading
  }
}

/** The pid and every live descendant, walked through /proc/<pid>/task/<tid>/children. */
function processTree(root) {
  const seen = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift();
    seen.push(pid);
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      const children = readProc(`/proc/${pid}/task/${tid}/children`);
      if (children) for (const c of children.trim().split(/\s+/)) if (c) queue.push(Number(c));
    }
  }
  return seen;
}

function hwmKb(pid) {
  const status = readProc(`/proc/${pid}/status`);
  const match = status?.match(/^VmHWM:\s+(\d+)\s+kB/m);
  return match ? Number(match[1]) : undefined;
}

/**
 * Peak RSS of a process tree, sampled every 10 ms from /proc (Linux only). VmHWM is the kernel's
 * high-water mark of each process, so a sample taken any time before a process ends already holds
 * its peak up to then; what can be missed is a process that lives less than one poll (codex's
 * one-shot shells, a few MB each) and growth in the last poll before exit.
 */
function rssSampler(rootPid) {
  const peaks = new Map(); // pid → { kb, name }
  const available = readProc('/proc/self/status') !== undefined;
  const sample = () => {
    for (const pid of processTree(rootPid)) {
      const kb = hwmKb(pid);
      if (kb === undefined) continue;
      const prev = peaks.get(pid);
      if (!prev || kb > prev.kb) {
        const name = prev?.name ?? readProc(`/proc/${pid}/comm`)?.trim() ?? '?';
        peaks.set(pid, { kb, name });
      }
    }
  };
  const timer = available ? setInterval(sample, RSS_POLL_MS) : undefined;
  if (available) sample();
  return {
    sample,
    stop() {
      clearInterval(timer);
      if (!available || peaks.size === 0) return { largest_mb: null, sum_mb: null, largest: null };
      let largest = { kb: 0, name: '?' };
      let sum = 0;
      for (const peak of peaks.values()) {
        sum += peak.kb;
        if (peak.kb > largest.kb) largest = peak;
      }
      return {
        largest_mb: round(largest.kb / 1024, 1),
        sum_mb: round(sum / 1024, 1),
        largest: largest.name,
        processes: peaks.size,
      };
    },
  };
}

export const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Kill the child's whole process group (it was started detached, so it leads its own group). */
export function killTree(child, signal = 'SIGKILL') {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

let running; // the child of the run in progress, so an interrupt can stop it

export function stopRunning() {
  if (running) killTree(running);
}

/**
 * One run: start a fresh mock, launch the CLI in `dirs.work`, wait for it to exit, compute figures.
 * Resolves with { ok, reason?, ttfr_ms, step_gap_median_ms, max_rss_mb, rss_sum_mb, total_s, ... }.
 */
export async function runOnce(peer, { dirs, steps, timeoutMs }) {
  const mock = await startMockLlm({ steps, workdir: dirs.work });
  const cmd = peer.command({ ...dirs, mockUrl: mock.url, steps });
  let stderr = '';
  let stdout = '';
  const t0 = performance.now();
  const child = spawn(cmd.file, cmd.args, {
    cwd: dirs.work,
    env: cmd.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running = child;
  const rss = rssSampler(child.pid);
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const timer = setTimeout(() => killTree(child), timeoutMs);
  const exit = await new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: null, error }));
    // 'exit' (not 'close'): the end of the CLI process is what the user waits for.
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  const t1 = performance.now();
  clearTimeout(timer);
  running = undefined;
  const memory = rss.stop();
  // Leftovers (a daemon a CLI forked off) go with the group.
  killTree(child);
  await mock.close();

  const requests = mock.events;
  const model = requests.filter((e) => e.dialect && e.tools > 0);
  const toolSteps = model.filter((e) => e.answer === 'tool').length;
  const final = model.find((e) => e.answer === 'text');
  const run = {
    exit_code: exit.code,
    requests: requests.length,
    model_requests: model.length,
    tool_steps: toolSteps,
    first_request_bytes: model[0]?.req_bytes ?? null,
    last_request_bytes: model.at(-1)?.req_bytes ?? null,
    total_s: round((t1 - t0) / 1000, 2),
    max_rss_mb: memory.largest_mb,
    rss_sum_mb: memory.sum_mb,
    rss_largest_process: memory.largest,
  };
  const problems = [];
  if (exit.error) problems.push(`could not start: ${exit.error.message}`);
  else if (exit.signal) problems.push(`killed by ${exit.signal} (timeout ${timeoutMs / 1000} s?)`);
  else if (exit.code !== 0) problems.push(`exit code ${exit.code}`);
  if (!exit.error && toolSteps !== steps)
    problems.push(`${toolSteps} of ${steps} tool steps reached the model`);
  if (!exit.error && !final) problems.push('no final model request after the tool steps');
  const untooled = model.find((e) => e.note);
  if (untooled) problems.push(untooled.note);
  if (problems.length > 0) {
    const tail = (stderr || stdout).trim().split('\n').slice(-5).join('\n');
    return { ok: false, reason: problems.join('; '), output_tail: tail, ...run };
  }
  // Gap k: arrival of model request k+1 minus the end of the response to request k (k = 1..steps),
  // i.e. the CLI's own work between getting a tool call and asking again, tool run included.
  const gaps = [];
  for (let k = 1; k <= steps; k += 1) gaps.push(model[k].arrived_ms - model[k - 1].resp_end_ms);
  return {
    ok: true,
    ttfr_ms: round(model[0].arrived_ms - t0),
    step_gap_median_ms: round(median(gaps)),
    step_gaps_ms: gaps.map((g) => round(g)),
    ...run,
  };
}

/** Median wall time of `node -e 0` started the same way as the CLIs (spawn to exit), in ms. */
export async function nodeFloor(samples) {
  const times = [];
  for (let i = 0; i < samples; i += 1) {
    const t0 = performance.now();
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
      child.on('error', reject);
      child.on('exit', resolve);
    });
    times.push(performance.now() - t0);
  }
  return { median_ms: round(median(times)), samples_ms: times.map((t) => round(t)) };
}
