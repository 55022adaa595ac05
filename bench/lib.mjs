// Shared helpers for the bench scripts: the performance rows, timing statistics, and the records a
// script reports.
//
// A record is one figure against one goal:
//   { row, measure, figure, unit, goal, pass }
// `row` is the id of one of ROWS below, `measure` says which figure of that row it is, `pass` is
// true or false when the figure has a goal and null when it is informational. `report()` prints the
// records, writes them to bench/results/scripts/<name>.json and hands them to `bench/run.mjs`.
//
// Quick mode (BENCH_QUICK=1, `pnpm bench:quick`, run in CI): a script measures with small N and adds
// `gate: { max }` to the records that must hold there. A gated figure is always a ratio to a floor
// measured in the same run (node -e 0, a plain Node loop, one read alone, tracing off, the exact
// tokenizer), so it does not depend on how fast the machine is; the bound is generous, to catch a
// regression several times over, never the noise of a busy machine.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const benchDir = dirname(fileURLToPath(import.meta.url));
export const repoRoot = join(benchDir, '..');
export const resultsDir = join(benchDir, 'results');
export const quick = process.env.BENCH_QUICK === '1';

/**
 * The performance goals, one row each. `pnpm bench` prints every row, with "no figure" for a row
 * no script measured.
 */
export const ROWS = [
  {
    id: 'cold-start',
    title: 'cold start, `tiny-claw --version` / `--help`',
    goal: '≤ 1.3× `node -e 0`',
  },
  {
    id: 'chat-start',
    title: 'time to the first `tiny-claw chat` prompt, in a terminal',
    goal: '≤ 1.3× `node -e 0`',
  },
  {
    id: 'first-request',
    title: 'time to first model request, one headless turn',
    goal: '≤ 250 ms',
  },
  {
    id: 'per-step',
    title: 'per-step harness overhead (instant model, one small read per step)',
    goal: 'median ≤ 8 ms, p95 ≤ 25 ms, slope < 0.05 ms/step over 500 steps',
  },
  {
    id: 'parallel-reads',
    title: '8 parallel-safe reads of 1 MB files in one turn',
    goal: '≤ 1.3× one read',
  },
  {
    id: 'edit-matcher',
    title: 'edit matcher',
    goal: 'hit ≤ 5 ms on 1 MB; miss cascade ≤ 100 ms at 10k lines, ≤ 300 ms at 1 MB; 250 ms budget',
  },
  { id: 'read-large', title: 'read of a 10 MB file (output capped)', goal: '≤ 30 ms' },
  {
    id: 'token-estimate',
    title: 'token estimate for compaction',
    goal: 'within ±15 % of the exact count on code and on Chinese text',
  },
  {
    id: 'webhook-ack',
    title: 'Feishu webhook ack while an agent run is active in the same process',
    goal: 'p99 ≤ 50 ms, max ≤ 200 ms; 200 signed events/s, none lost or doubled',
  },
  {
    id: 'tracing-overhead',
    title: 'tracing overhead, metadata vs off, 200-step run',
    goal: '≤ 5 %',
  },
  {
    id: 'memory',
    title: 'memory',
    goal: '≤ 100 MB max RSS at 20 steps; slope ≤ 0.1 MB/step beyond retained history',
  },
];

/** Script name → row, for scripts that report rows without naming one. */
export const ROW_OF_SCRIPT = {
  'feishu-webhook-load': 'webhook-ack',
  'webhook-ack': 'webhook-ack',
  'first-request': 'first-request',
  memory: 'memory',
  'cold-start': 'cold-start',
  'chat-start': 'chat-start',
  'per-step': 'per-step',
  'edit-matcher': 'edit-matcher',
  'tracing-overhead': 'tracing-overhead',
  'token-estimate': 'token-estimate',
  'parallel-reads': 'parallel-reads',
  'read-large': 'read-large',
};

export function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    n: sorted.length,
    min: sorted[0],
    median: at(0.5),
    p95: at(0.95),
    max: sorted.at(-1),
  };
}

export const median = (samples) => stats(samples).median;

/** Least-squares slope of y over x. */
export function slope(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i += 1) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export const round = (n, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Turn one reported row into a record. Rows in the older shape `{ measure, value, goal, ok }`
 * (scripts written before records had a row id) get the script's row.
 */
export function toRecord(name, row) {
  const id = row.row ?? ROW_OF_SCRIPT[name] ?? name;
  const figure = 'figure' in row ? row.figure : row.value;
  const pass = 'pass' in row ? row.pass : row.ok;
  const record = {
    row: id,
    measure: row.measure ?? '',
    figure,
    unit: row.unit ?? '',
    goal: row.goal ?? '—',
    pass: typeof pass === 'boolean' ? pass : null,
  };
  if (row.gate) {
    const max = row.gate.max;
    record.gate = { max, pass: typeof figure === 'number' && figure <= max };
  }
  return record;
}

export function formatFigure(record) {
  const { figure, unit } = record;
  if (figure === null || figure === undefined) return '—';
  if (typeof figure !== 'number') return String(figure);
  const shown = Math.abs(figure) >= 100 ? round(figure, 1) : round(figure, 3);
  if (unit === '×') return `${shown}×`;
  if (unit === '%') return `${shown} %`;
  return unit ? `${shown} ${unit}` : String(shown);
}

export function mark(pass) {
  if (pass === true) return 'pass';
  if (pass === false) return 'MISS';
  return '';
}

/**
 * Print `rows` and write them as records to bench/results/scripts/<name>.json. A row is
 * `{ row, measure, figure, unit, goal, pass, gate? }`; the older `{ measure, value, goal, ok }` is
 * accepted too.
 */
export function report(name, rows, extra = {}) {
  const records = rows.map((row) => toRecord(name, row));
  for (const record of records) {
    const gate = record.gate
      ? `   quick gate ≤ ${record.gate.max}${record.unit === '×' ? '×' : ''}: ${record.gate.pass ? 'ok' : 'FAIL'}`
      : '';
    console.log(
      `${mark(record.pass).padEnd(4)} ${record.measure.padEnd(56)} ${formatFigure(record).padStart(16)}   goal ${record.goal}${gate}`,
    );
  }
  const file = join(resultsDir, 'scripts', `${name}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify({ name, at: new Date().toISOString(), node: process.version, quick, records, ...extra }, null, 2)}\n`,
  );
}
