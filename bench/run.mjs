// Runs the bench scripts, each in its own process, and prints every performance row's figures next
// to their goals.
//
//   node bench/run.mjs                 every bench/*.bench.mjs; writes bench/results/<YYYY-MM-DD>.json;
//                                      fails only when a script crashes
//   node bench/run.mjs --peers         also the side-by-side run against the peer CLIs
//                                      (bench/peers/run.mjs: downloads them, a few minutes)
//   node bench/run.mjs <part-of-name>  only the scripts whose file name contains it
//   node bench/run.mjs --quick         the quick subset with small N (BENCH_QUICK=1); fails when a
//                                      script crashes or a gated ratio is over its bound (CI)
//   node bench/run.mjs --markdown FILE the records of a results file as a Markdown table
//
// A script reports records through lib.mjs `report()`; a script that writes its own JSON under
// bench/results/ (same record shape, or the older { measure, value, goal, ok } rows) is read too.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release } from 'node:os';
import { basename, join, relative } from 'node:path';
import { benchDir, formatFigure, mark, ROWS, resultsDir, toRecord } from './lib.mjs';

/** The quick subset: each reports ratios to a floor measured in the same run, with gates. */
const QUICK = [
  'cold-start.bench.mjs',
  'first-request.bench.mjs',
  'memory.bench.mjs',
  'per-step.bench.mjs',
  'parallel-reads.bench.mjs',
  'tracing-overhead.bench.mjs',
  'token-estimate.bench.mjs',
];

const args = process.argv.slice(2);
if (args[0] === '--markdown') {
  const file = args[1];
  if (!file || !existsSync(file)) {
    console.error('usage: node bench/run.mjs --markdown bench/results/<date>.json');
    process.exit(2);
  }
  process.stdout.write(markdown(JSON.parse(readFileSync(file, 'utf8')).records));
  process.exit(0);
}
const isQuick = args.includes('--quick');
const withPeers = args.includes('--peers');
const only = args.filter((a) => !a.startsWith('--'));

function scripts() {
  const found = readdirSync(benchDir)
    .filter((file) => file.endsWith('.bench.mjs'))
    .sort()
    .map((file) => join(benchDir, file));
  const peers = join(benchDir, 'peers', 'run.mjs');
  if (withPeers && !isQuick && existsSync(peers)) found.push(peers);
  return found
    .filter((path) => !isQuick || QUICK.includes(basename(path)))
    .filter(
      (path) => only.length === 0 || only.some((part) => relative(benchDir, path).includes(part)),
    );
}

/** Result files (JSON) under bench/results, except the dated summaries this runner writes. */
function resultFiles(dir = resultsDir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...resultFiles(path));
    else if (entry.name.endsWith('.json') && !/^\d{4}-\d{2}-\d{2}/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Result files already read, with the modification time they had then. */
const consumed = new Map();

/**
 * Records from the result files script `script` wrote while it ran (each version of a file once):
 * the files named after the script when there are any — so a bench someone runs by hand meanwhile
 * is not mixed in — else every file written in that time.
 */
function recordsWrittenSince(startedMs, script) {
  const expected = basename(script).replace(/\.bench\.mjs$|\.mjs$/, '');
  const fresh = [];
  for (const file of resultFiles()) {
    const { mtimeMs } = statSync(file);
    if (mtimeMs < startedMs || consumed.get(file) === mtimeMs) continue;
    let data;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    const name = data.name ?? basename(file, '.json');
    const rows = Array.isArray(data.records) ? data.records : data.rows;
    if (Array.isArray(rows)) fresh.push({ file, mtimeMs, name, rows });
  }
  const own = fresh.filter((f) => f.name === expected);
  const records = [];
  for (const { file, mtimeMs, name, rows } of own.length > 0 ? own : fresh) {
    consumed.set(file, mtimeMs);
    for (const row of rows) {
      records.push({ ...toRecord(name, row), source: relative(benchDir, file) });
    }
  }
  return records;
}

const runs = [];
const records = [];
const wallStart = Date.now();
const loadAtStart = loadavg()[0];
for (const path of scripts()) {
  const name = relative(benchDir, path);
  console.log(`\n== ${name}${isQuick ? ' (quick)' : ''}`);
  // File times have coarse granularity on some file systems: allow a little slack.
  const started = Date.now() - 50;
  const result = spawnSync(process.execPath, [path], {
    stdio: 'inherit',
    env: { ...process.env, ...(isQuick ? { BENCH_QUICK: '1' } : {}) },
  });
  const ms = Date.now() - started;
  const found = recordsWrittenSince(started, path);
  records.push(...found);
  const status = result.status === 0 ? 'ok' : `exit ${result.status ?? result.signal}`;
  runs.push({ script: name, status, seconds: Math.round(ms / 100) / 10, records: found.length });
}

printTable(records);
const crashed = runs.filter((r) => r.status !== 'ok');
const gateFailures = records.filter((r) => r.gate && !r.gate.pass);
console.log(
  `\n${runs.length} script(s) in ${Math.round((Date.now() - wallStart) / 1000)} s; ${crashed.length} crashed${isQuick ? `; ${gateFailures.length} quick gate(s) failed` : ''}`,
);
for (const r of crashed) console.log(`  crashed: ${r.script} (${r.status})`);
for (const r of gateFailures) {
  console.log(`  gate failed: ${r.measure} = ${formatFigure(r)}, bound ${r.gate.max}`);
}

if (!isQuick && only.length === 0) {
  const day = new Date().toISOString().slice(0, 10);
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${day}.json`);
  const machine = {
    node: process.version,
    platform: `${process.platform} ${release()}`,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    // Other work on the machine moves every figure: the 1-minute load average before and after.
    load: [Math.round(loadAtStart * 100) / 100, Math.round(loadavg()[0] * 100) / 100],
  };
  writeFileSync(
    file,
    `${JSON.stringify({ at: new Date().toISOString(), machine, runs, records }, null, 2)}\n`,
  );
  console.log(`results: ${relative(process.cwd(), file)}`);
}
const peersTable = join(benchDir, 'peers', 'RESULTS.md');
if (!isQuick && existsSync(peersTable)) {
  console.log(
    `side by side with the peer CLIs: ${relative(process.cwd(), peersTable)}${withPeers ? '' : ' (re-measure with --peers)'}`,
  );
}
process.exitCode = crashed.length > 0 || (isQuick && gateFailures.length > 0) ? 1 : 0;

function printTable(all) {
  const width = (rows, key) => Math.max(...rows.map((r) => r[key].length));
  const lines = [];
  for (const row of ROWS) {
    const mine = all.filter((r) => r.row === row.id);
    if ((isQuick || only.length > 0) && mine.length === 0) continue;
    lines.push({ row: row.title, measure: '', figure: '', goal: row.goal, verdict: '' });
    if (mine.length === 0) {
      lines.push({ row: '', measure: 'no figure', figure: '—', goal: '', verdict: 'MISS' });
    }
    for (const r of mine) lines.push(line(r));
  }
  const known = new Set(ROWS.map((r) => r.id));
  const other = all.filter((r) => !known.has(r.row));
  if (other.length > 0) {
    lines.push({ row: 'other', measure: '', figure: '', goal: '', verdict: '' });
    for (const r of other) lines.push(line(r));
  }
  const m = width(lines, 'measure');
  const f = width(lines, 'figure');
  console.log('\n== results');
  for (const l of lines) {
    if (l.row) {
      console.log(`\n${l.row}  (goal: ${l.goal})`);
      continue;
    }
    console.log(
      `  ${l.verdict.padEnd(4)}  ${l.measure.padEnd(m)}  ${l.figure.padStart(f)}  ${l.goal}`,
    );
  }
}

function line(r) {
  const gate = r.gate ? ` [quick gate ≤ ${r.gate.max}: ${r.gate.pass ? 'ok' : 'FAIL'}]` : '';
  return {
    row: '',
    measure: r.measure,
    figure: formatFigure(r),
    goal: `${r.goal}${gate}`,
    verdict: mark(r.pass),
  };
}

function markdown(all) {
  const out = ['| row | measure | figure | goal | |', '|---|---|---|---|---|'];
  for (const row of ROWS) {
    const mine = all.filter((r) => r.row === row.id);
    if (mine.length === 0) out.push(`| ${row.title} | no figure | — | ${row.goal} | miss |`);
    mine.forEach((r, i) => {
      const verdict = r.pass === true ? 'pass' : r.pass === false ? '**miss**' : '';
      out.push(
        `| ${i === 0 ? row.title : ''} | ${r.measure} | ${formatFigure(r)} | ${r.goal} | ${verdict} |`,
      );
    });
  }
  return `${out.join('\n')}\n`;
}
