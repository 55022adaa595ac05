// Edit matcher on large files: every strategy's hit and the full miss
// cascade on a 10,000-line file and a 1 MB file, median of several runs, against the goals
// hit ≤ 5 ms on 1 MB, miss cascade ≤ 100 ms at 10k lines and ≤ 300 ms at 1 MB, never past the
// 250 ms budget; plus Levenshtein on long lines (bounded, O(min) memory). Runs on the built
// package: `pnpm build` first.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { repoRoot, report, round, stats } from './lib.mjs';

const dist = join(repoRoot, 'packages/tools/dist/edit');
if (!existsSync(join(dist, 'matcher.js'))) {
  console.error(`missing ${dist}/matcher.js: run \`pnpm build\` first`);
  process.exit(1);
}
const load = (file) => import(pathToFileURL(join(dist, file)).href);
const { findMatch, STRATEGIES, MATCHER_LIMITS } = await load('matcher.js');
const { describeNotFound } = await load('diagnostics.js');
const { boundedLevenshtein } = await load('levenshtein.js');

const runs = Number(process.env.BENCH_RUNS ?? 9);

// Code-like text: nested functions, `}` every few lines (the anchor pathology), ~43 chars/line.
function generate(lineCount) {
  const lines = [];
  for (let i = 0; lines.length < lineCount; i += 1) {
    lines.push(`export function handler${i}(input, options) {`);
    lines.push(`  const value${i} = compute(input, ${i}, options.scale);`);
    lines.push(`  if (value${i} > ${i % 97}) {`);
    lines.push(`    log('handler ${i} over threshold', value${i});`);
    lines.push('  }');
    lines.push(`  return value${i} * ${(i % 13) + 1};`);
    lines.push('}');
  }
  return `${lines.slice(0, lineCount).join('\n')}\n`;
}

function linesUntil(bytes) {
  const perLine = generate(700).length / 700;
  return Math.ceil(bytes / perLine);
}

/** 20 lines near the end of the file, starting at a function header. */
function blockNearEnd(text) {
  const lines = text.split('\n');
  let start = lines.length - 60;
  while (!lines[start].startsWith('export function')) start += 1;
  return lines.slice(start, start + 20);
}

function variants(text) {
  const block = blockNearEnd(text);
  const exact = block.join('\n');
  return {
    exact: { content: text, old: exact },
    newline_normalized: { content: text.replaceAll('\n', '\r\n'), old: exact },
    trimmed: { content: text, old: `\n\n${exact}  \n\n` },
    line_trimmed: { content: text, old: block.map((l) => `${l}   `).join('\n') },
    indentation_flexible: { content: text, old: block.map((l) => `    ${l}`).join('\n') },
    whitespace_normalized: {
      content: text,
      old: block.map((l) => l.replace(/ /g, '  ')).join('\n'),
    },
    block_anchor: {
      content: text,
      // Same first/last line, a typo in the middle: only the anchor strategy finds it.
      old: [block[0], ...block.slice(1, 6).map((l) => l.replace('value', 'valeu')), block[6]].join(
        '\n',
      ),
    },
  };
}

/** Hallucinated code: first line `}` (present every 7 lines), last line absent. */
function missOld() {
  const lines = ['}'];
  for (let i = 0; i < 18; i += 1) lines.push(`  const ghost${i} = imagine(${i}, 'never there');`);
  lines.push('export function doesNotExist() {');
  return lines.join('\n');
}

function time(fn) {
  const samples = [];
  let last;
  for (let i = 0; i < runs + 1; i += 1) {
    const start = performance.now();
    last = fn();
    const ms = performance.now() - start;
    if (i > 0) samples.push(ms); // the first run warms the JIT
  }
  return { ...stats(samples), last };
}

const rows = [];
const extra = { runs, budgetMs: MATCHER_LIMITS.budgetMs, cases: {} };
const files = [
  { label: '10k lines', text: generate(10_000), missGoal: 100 },
  { label: '1 MB', text: generate(linesUntil(1024 * 1024)), missGoal: 300 },
];

for (const file of files) {
  extra[file.label] = {
    megabytes: round(file.text.length / 1024 / 1024, 2),
    lines: file.text.split('\n').length - 1,
  };
  for (const [name, { content, old }] of Object.entries(variants(file.text))) {
    const pipeline = time(() => findMatch(content, old));
    const outcome = pipeline.last;
    if (!outcome.found || outcome.strategy !== name || outcome.matches.length !== 1) {
      throw new Error(
        `${file.label} ${name}: expected one ${name} match, got ${JSON.stringify(outcome).slice(0, 300)}`,
      );
    }
    const alone = time(() => STRATEGIES[name](content, old));
    const isExact = name === 'exact';
    const goal = isExact ? 5 : file.missGoal;
    extra.cases[`${file.label} ${name}`] = {
      pipeline: pipeline.median,
      strategyAlone: alone.median,
    };
    rows.push({
      measure: `${file.label}: ${name} hit`,
      unit: 'ms',
      figure: round(pipeline.median),
      goal: isExact ? '≤ 5 ms' : `≤ ${goal} ms (after earlier misses)`,
      pass: pipeline.median <= goal,
    });
    rows.push({
      measure: `${file.label}: ${name} alone`,
      unit: 'ms',
      figure: round(alone.median),
      goal: '—',
    });
  }
  const old = missOld();
  const miss = time(() => findMatch(file.text, old));
  if (miss.last.found) throw new Error(`${file.label}: the miss case matched`);
  rows.push({
    measure: `${file.label}: full miss cascade`,
    unit: 'ms',
    figure: round(miss.median),
    goal: `≤ ${file.missGoal} ms`,
    ok: miss.median <= file.missGoal,
  });
  rows.push({
    measure: `${file.label}: full miss cascade, max`,
    unit: 'ms',
    figure: round(miss.max),
    goal: `≤ ${MATCHER_LIMITS.budgetMs} ms budget (+50 slack)`,
    ok: miss.max <= MATCHER_LIMITS.budgetMs + 50,
  });
  const diagnose = time(() => describeNotFound('bench.ts', file.text, old, 'not_found'));
  rows.push({
    measure: `${file.label}: not-found diagnosis`,
    unit: 'ms',
    figure: round(diagnose.median),
    goal: '— (after the cascade)',
  });
}

// Long lines: one anchored candidate whose 3 middle lines are L chars long and differ slightly.
// Up to 1,000 chars they go through bounded Levenshtein (and match); longer ones are compared for
// equality only, so the miss costs nothing.
for (const length of [900, 2_000, 5_000, 10_000]) {
  const middle = (seed) =>
    Array.from({ length: 3 }, (_, i) =>
      `  x${i} = "${seed}${i}${'abcdefghij'.repeat(length / 10)}`.slice(0, length),
    );
  const content = `function anchor() {\n${middle('A').join('\n')}\n} // end anchor\n`;
  const old = `function anchor() {\n${middle('B').join('\n')}\n} // end anchor`;
  const before = process.memoryUsage().rss;
  const result = time(() => findMatch(content, old));
  const rssDelta = (process.memoryUsage().rss - before) / 1024 / 1024;
  rows.push({
    measure: `3 middle lines × ${length} chars (${result.last.found ? result.last.strategy : 'miss'})`,
    unit: 'ms',
    figure: round(result.median),
    goal: `≤ ${MATCHER_LIMITS.budgetMs} ms budget`,
    ok: result.max <= MATCHER_LIMITS.budgetMs + 50,
  });
  rows.push({
    measure: `3 middle lines × ${length} chars, RSS Δ`,
    unit: 'MB',
    figure: round(rssDelta, 1),
    goal: 'flat (O(min) memory)',
  });
  const a = 'q'.repeat(length);
  const b = `${'q'.repeat(length - 5)}zzzzz`;
  const lev = time(() => boundedLevenshtein(a, b, Math.floor(length * 0.2)));
  rows.push({
    measure: `levenshtein ${length}² band 20%`,
    unit: 'ms',
    figure: round(lev.median),
    goal: '—',
  });
}

report('edit-matcher', rows, extra);
