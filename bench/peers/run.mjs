// Side-by-side run: tiny-claw and the peer CLIs (Codex CLI, Claude Code) driven by the same scripted
// loopback model — 20 steps with one small read each, then a final answer — three measured runs each.
// Peers are installed from npm into a throwaway prefix (never into this repository); everything a
// run writes lives in one temp dir that is removed at the end, also on Ctrl-C.
//
//   node bench/peers/run.mjs                      # all three, 3 runs each
//   node bench/peers/run.mjs --only tiny-claw     # just tiny-claw (no install)
//   node bench/peers/run.mjs --prefix ~/.cache/tc-peers   # keep the peer install between runs
//
// Writes bench/peers/results/<date>.json and bench/peers/RESULTS.md, prints the table.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median, nodeFloor, round, runOnce, stopRunning } from './measure.mjs';
import { claude, codex, DEFAULT_VERSIONS, tinyClaw } from './peers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '../..');

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1' },
    steps: { type: 'string', default: '20' },
    only: { type: 'string' },
    prefix: { type: 'string' },
    'codex-version': { type: 'string', default: DEFAULT_VERSIONS.codex },
    'claude-version': { type: 'string', default: DEFAULT_VERSIONS.claude },
    'timeout-s': { type: 'string', default: '120' },
    'floor-samples': { type: 'string', default: '10' },
    'no-write': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (opts.help) {
  console.log(`Usage: node bench/peers/run.mjs [options]
  --only NAMES          comma-separated subset of tiny-claw,codex,claude (default: all)
  --runs N              measured runs per CLI (default 3)
  --warmup N            unmeasured runs per CLI first, to warm the page cache (default 1)
  --steps N             tool steps per run (default 20)
  --prefix DIR          install the peers into DIR and keep it (default: a temp dir, removed)
  --codex-version V     @openai/codex version (default ${DEFAULT_VERSIONS.codex})
  --claude-version V    @anthropic-ai/claude-code version (default ${DEFAULT_VERSIONS.claude})
  --timeout-s S         kill a run after S seconds (default 120)
  --floor-samples N     samples of 'node -e 0' (default 10)
  --no-write            print the table only; write no results file
  --keep                keep the temp dir (prints where) for a look at the CLIs' files`);
  process.exit(0);
}

const runs = Number(opts.runs);
const warmup = Number(opts.warmup);
const steps = Number(opts.steps);
const timeoutMs = Number(opts['timeout-s']) * 1000;
const wanted = (opts.only ?? 'tiny-claw,codex,claude').split(',').map((s) => s.trim());
for (const [flag, value] of Object.entries({ runs, warmup, steps, timeoutMs })) {
  if (!Number.isInteger(value) || value < (flag === 'warmup' ? 0 : 1)) {
    console.error(
      `bench/peers: --${flag} must be a whole number${flag === 'warmup' ? '' : ' ≥ 1'}`,
    );
    process.exit(2);
  }
}
for (const name of wanted) {
  if (!['tiny-claw', 'codex', 'claude'].includes(name)) {
    console.error(
      `bench/peers: unknown CLI '${name}' in --only (choose from tiny-claw,codex,claude)`,
    );
    process.exit(2);
  }
}

const root = mkdtempSync(join(tmpdir(), 'tc-peers-'));
const prefix = opts.prefix ? resolve(opts.prefix) : join(root, 'prefix');
let cleaned = false;
function cleanup() {
  if (cleaned) return;
  cleaned = true;
  stopRunning();
  if (opts.keep) console.error(`bench/peers: kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    console.error(`\nbench/peers: ${signal}, stopping and removing ${root}`);
    cleanup();
    process.exit(130);
  });
}
process.on('exit', cleanup);

const log = (line) => console.error(`bench/peers: ${line}`);

/** The version of the peer's package already in the prefix (a kept --prefix), if any. */
function installedVersion(peer) {
  try {
    const file = join(prefix, 'node_modules', peer.npmName, 'package.json');
    return JSON.parse(readFileSync(file, 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** npm install into the throwaway prefix, unless that version is already there. */
function installPeer(peer) {
  mkdirSync(prefix, { recursive: true });
  if (installedVersion(peer) !== peer.npmVersion) {
    log(`installing ${peer.npm} into ${prefix}`);
    const npm = spawnSync(
      'npm',
      ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', peer.npm],
      {
        // In the prefix, so no .npmrc of the repository (or of the caller's cwd) applies. Saved to
        // the prefix's own package.json, or the next peer's install would prune this one.
        cwd: prefix,
        encoding: 'utf8',
        timeout: 15 * 60 * 1000,
        env: { ...process.env, npm_config_update_notifier: 'false' },
      },
    );
    if (npm.status !== 0 || !existsSync(peer.bin)) {
      const why = (npm.stderr || npm.error?.message || '').trim().split('\n').slice(-3).join(' ');
      throw new Error(`npm install ${peer.npm} failed${why ? `: ${why}` : ''}`);
    }
  }
}

/** The peer starts and says its version (run once every install is done). */
function probePeer(peer) {
  const probe = spawnSync(peer.bin, peer.versionArgs, {
    encoding: 'utf8',
    timeout: 60_000,
    env: peer.command({ home: join(root, 'probe-home'), mockUrl: 'http://127.0.0.1:9' }).env,
  });
  const version = peer.parseVersion(`${probe.stdout}`);
  if (probe.status !== 0 || !version) {
    const why = `${probe.stderr || probe.error?.message || ''}`.trim().split('\n').slice(-3);
    throw new Error(`'${peer.name} --version' did not run: ${why.join(' ') || 'no output'}`);
  }
  return { version };
}

function freshDirs(label) {
  const base = mkdtempSync(join(root, `${label}-`));
  const dirs = {
    home: join(base, 'home'),
    work: join(base, 'work'),
    state: join(base, 'state'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  for (let i = 0; i < steps; i += 1) {
    writeFileSync(join(dirs.work, `f${i}.txt`), `file ${i}\nline two of file ${i}\n`);
  }
  return { base, dirs };
}

function gitHead() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

// ---- machine and floor -----------------------------------------------------------------------
const machine = {
  nproc: availableParallelism(),
  cpu: cpus()[0]?.model?.trim() ?? 'unknown',
  node: process.version,
  os: `${process.platform} ${release()}`,
  // Other work on the machine moves every figure; the 1-minute load says how quiet it was.
  load_at_start: round(loadavg()[0], 2),
};
log(`machine: ${machine.nproc} CPUs (${machine.cpu}), node ${machine.node}, ${machine.os}`);
const floor = await nodeFloor(Number(opts['floor-samples']));
log(`floor: node -e 0 = ${floor.median_ms} ms (median of ${floor.samples_ms.length})`);

// ---- prepare the CLIs --------------------------------------------------------------------------
const candidates = [
  tinyClaw(repoRoot, join(root, 'tiny-claw-cache')),
  codex(prefix, opts['codex-version']),
  claude(prefix, opts['claude-version']),
].filter((p) => wanted.includes(p.name));
const ready = [];
const skipped = [];
const skip = (peer, error) => {
  skipped.push({ peer: peer.name, reason: error.message });
  log(`skipping ${peer.name}: ${error.message}`);
};
const installed = [];
for (const peer of candidates) {
  try {
    if (peer.npm) installPeer(peer);
    installed.push(peer);
  } catch (error) {
    skip(peer, error);
  }
}
for (const peer of installed) {
  try {
    const { version } = peer.npm ? probePeer(peer) : await peer.prepare();
    const head = peer.name === 'tiny-claw' ? gitHead() : undefined;
    peer.version = head ? `${version} (${head})` : version;
    ready.push(peer);
    log(`${peer.name} ${peer.version} ready`);
  } catch (error) {
    skip(peer, error);
  }
}

// ---- runs: warm-up first, then the measured runs round-robin, so drift hits every CLI alike ----
const results = new Map(ready.map((p) => [p.name, []]));
for (const peer of ready) {
  for (let i = 0; i < warmup; i += 1) {
    const { base, dirs } = freshDirs(`${peer.name}-warmup`);
    const r = await runOnce(peer, { dirs, steps, timeoutMs });
    rmSync(base, { recursive: true, force: true });
    log(`${peer.name} warm-up: ${r.ok ? `${r.total_s} s` : `failed (${r.reason})`}`);
  }
}
for (let i = 0; i < runs; i += 1) {
  for (const peer of ready) {
    const { base, dirs } = freshDirs(`${peer.name}-${i}`);
    const r = await runOnce(peer, { dirs, steps, timeoutMs });
    if (!opts.keep) rmSync(base, { recursive: true, force: true });
    results.get(peer.name).push(r);
    log(
      r.ok
        ? `${peer.name} run ${i + 1}: first request ${r.ttfr_ms} ms, gap ${r.step_gap_median_ms} ms, ` +
            `RSS ${r.max_rss_mb} MB, total ${r.total_s} s`
        : `${peer.name} run ${i + 1} FAILED: ${r.reason}\n${r.output_tail ?? ''}`,
    );
  }
}

// ---- summary -----------------------------------------------------------------------------------
function summary(values) {
  const present = values.filter((v) => typeof v === 'number');
  if (present.length === 0) return { median: null, min: null, max: null };
  return { median: median(present), min: Math.min(...present), max: Math.max(...present) };
}

const peers = [];
for (const peer of ready) {
  const all = results.get(peer.name);
  const good = all.filter((r) => r.ok);
  if (good.length === 0) {
    skipped.push({ peer: peer.name, reason: `every run failed: ${all[0]?.reason ?? 'no runs'}` });
    continue;
  }
  const ttfr = summary(good.map((r) => r.ttfr_ms));
  const gap = summary(good.map((r) => r.step_gap_median_ms));
  const rss = summary(good.map((r) => r.max_rss_mb));
  const rssSum = summary(good.map((r) => r.rss_sum_mb));
  const total = summary(good.map((r) => r.total_s));
  peers.push({
    peer: peer.name,
    version: peer.version,
    ttfr_ms: round(ttfr.median),
    step_gap_median_ms: round(gap.median),
    max_rss_mb: rss.median === null ? null : round(rss.median),
    total_s: round(total.median, 2),
    ttfr_over_floor: round(ttfr.median / floor.median_ms, 2),
    ranges: {
      ttfr_ms: [ttfr.min, ttfr.max],
      step_gap_median_ms: [gap.min, gap.max],
      max_rss_mb: [rss.min, rss.max],
      rss_sum_mb: [rssSum.min, rssSum.max],
      total_s: [total.min, total.max],
    },
    failed_runs: all.length - good.length,
    runs: all,
  });
}

const fmt = (n, digits = 0) => (n === null ? '—' : n.toFixed(digits));
const range = ([a, b], digits = 0) => (a === null ? '' : ` (${fmt(a, digits)}–${fmt(b, digits)})`);
const names = { 'tiny-claw': 'tiny-claw', codex: 'Codex CLI', claude: 'Claude Code' };
const table = [
  `| | time to first model request | per-step gap, median | max RSS | ${steps}-step run, total |`,
  '|---|---|---|---|---|',
  ...peers.map(
    (p) =>
      `| ${names[p.peer]} ${p.version} | ${fmt(p.ttfr_ms)} ms${range(p.ranges.ttfr_ms)} | ` +
      `${fmt(p.step_gap_median_ms)} ms${range(p.ranges.step_gap_median_ms)} | ` +
      `${fmt(p.max_rss_mb)} MB${range(p.ranges.max_rss_mb)} | ` +
      `${fmt(p.total_s, 2)} s${range(p.ranges.total_s, 2)} |`,
  ),
].join('\n');

machine.load_at_end = round(loadavg()[0], 2);
const date = new Date().toISOString().slice(0, 10);
const notes = [
  `Load average (1 min) ${machine.load_at_start} at the start, ${machine.load_at_end} at the end, on ${machine.nproc} CPUs.`,
  `Floor: \`node -e 0\` = ${floor.median_ms} ms here (median of ${floor.samples_ms.length}, spawn to exit).`,
  ...(peers.length > 0
    ? [
        'Time to first model request over that floor: ' +
          peers
            .map((p) => `${names[p.peer]} ${(p.ttfr_ms / floor.median_ms).toFixed(1)}×`)
            .join(', ') +
          '.',
      ]
    : []),
  ...skipped.map((s) => `Skipped ${names[s.peer]}: ${s.reason}`),
  ...peers
    .filter((p) => p.failed_runs > 0)
    .map((p) => `${names[p.peer]}: ${p.failed_runs} of ${runs} runs failed and are left out.`),
];
console.log(`\n${table}\n\n${notes.join('\n')}\n`);

if (!opts['no-write']) {
  const resultsDir = join(here, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const record = {
    date,
    at: new Date().toISOString(),
    machine,
    floor: { node_e0_ms: floor.median_ms, samples_ms: floor.samples_ms },
    method: {
      steps,
      runs,
      warmup,
      figures: 'median over the measured runs; ranges are the min and max of those runs',
      ttfr: 'spawn of the CLI to the arrival of its first model request that offers tools',
      step_gap:
        'per run, the median over the steps of: arrival of model request k+1 minus the end of response k',
      max_rss:
        'largest single process of the CLI process tree, by its VmHWM sampled every 10 ms (rss_sum_mb adds every process peak)',
      total: 'spawn of the CLI to its exit',
    },
    peers,
    skipped,
  };
  const file = join(resultsDir, `${date}.json`);
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  const md = [
    '# Side by side: tiny-claw, Codex CLI, Claude Code',
    '',
    `Measured ${date} by \`node bench/peers/run.mjs\` on ${machine.nproc} CPUs (${machine.cpu}),`,
    `Node ${machine.node}, ${machine.os}. Each CLI was driven by the same scripted loopback model:`,
    `${steps} steps of one small file read each, then a final answer; ${runs} measured runs per CLI`,
    `after ${warmup} warm-up run${warmup === 1 ? '' : 's'}. Figures are medians of the runs, ranges in brackets.`,
    'What each column means, and how each CLI was set up: README.md beside this file.',
    '',
    table,
    '',
    ...notes.map((n) => `- ${n}`),
    "- Max RSS is the largest single process of the CLI's process tree (its peak VmHWM); the",
    '  results JSON also has the sum over the tree (`rss_sum_mb`).',
    `- Raw runs: \`results/${date}.json\`.`,
    '',
  ].join('\n');
  writeFileSync(join(here, 'RESULTS.md'), md);
  log(`wrote ${file} and ${join(here, 'RESULTS.md')}`);
}
cleanup();
process.exitCode =
  peers.some((p) => p.peer === 'tiny-claw') || !wanted.includes('tiny-claw') ? 0 : 1;
