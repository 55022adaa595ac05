// Shared helpers for the bench scripts: timing, statistics and the JSON result file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const benchDir = dirname(fileURLToPath(import.meta.url));
export const repoRoot = join(benchDir, '..');

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

/** Print rows of { measure, value, goal, ok } and write them to bench/results/<name>.json. */
export function report(name, rows, extra = {}) {
  for (const row of rows) {
    const mark = row.ok === undefined ? ' ' : row.ok ? '✓' : '✗';
    console.log(
      `${mark} ${row.measure.padEnd(48)} ${String(row.value).padStart(14)}   goal ${row.goal}`,
    );
  }
  const file = join(benchDir, 'results', `${name}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify({ name, at: new Date().toISOString(), node: process.version, rows, ...extra }, null, 2)}\n`,
  );
}

export const round = (n, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
