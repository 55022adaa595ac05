// Token estimate for compaction: core's estimateTokens against the exact o200k_base count
// (gpt-tokenizer, a dev dependency of the repository used here only) on the repository's own
// TypeScript, its English docs, and Chinese and mixed Chinese/code samples. Also characters ÷ 4
// for comparison, and the cost of each.
// Goal: within ±15 % on code and on Chinese text.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { quick, repoRoot, report, round } from './lib.mjs';

const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
const { estimateTokens } = await import(
  join(repoRoot, 'packages/core/dist/context/token-estimate.js')
);

const tracked = (pattern) =>
  execFileSync('git', ['ls-files', pattern], { cwd: repoRoot, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .sort();
const read = (path) => readFileSync(join(repoRoot, path), 'utf8');
const samples = 'packages/core/src/context/__fixtures__/token-samples';

let code = [...tracked('packages/*/src/**/*.ts'), ...tracked('apps/*/src/**/*.ts')];
// Quick mode: every tenth file, enough to catch an estimator that drifted.
if (quick) code = code.filter((_, i) => i % 10 === 0);
const corpora = {
  code: code.map((path) => ({ path, text: read(path) })),
  Chinese: [
    `${samples}/chinese.txt`,
    `${samples}/chinese-traditional.txt`,
    'bench/fixtures/chinese-guide.md',
    'bench/fixtures/chinese-chat.txt',
  ].map((path) => ({ path, text: read(path) })),
  'mixed Chinese and code': [`${samples}/mixed-code.ts.txt`, `${samples}/mixed-chat.md`].map(
    (path) => ({ path, text: read(path) }),
  ),
  'English prose': (quick ? [] : ['README.md', ...tracked('docs/*.md')]).map((path) => ({
    path,
    text: read(path),
  })),
};

const rows = [];
const extra = { files: {} };
for (const [name, files] of Object.entries(corpora)) {
  if (files.length === 0) continue;
  let exact = 0;
  let estimate = 0;
  let chars = 0;
  let worst = { path: '', error: 0 };
  for (const { path, text } of files) {
    const e = countTokens(text);
    const g = estimateTokens(text);
    exact += e;
    estimate += g;
    chars += text.length;
    const error = g / e - 1;
    if (text.length >= 500 && Math.abs(error) > Math.abs(worst.error)) worst = { path, error };
  }
  const error = estimate / exact - 1;
  const goal = name === 'code' || name === 'Chinese';
  extra.files[name] = { files: files.length, chars, exact, estimate, worst };
  rows.push({
    row: 'token-estimate',
    measure: `${name} (${files.length} files, ${exact} tokens): estimate vs exact`,
    figure: round(error * 100, 1),
    unit: '%',
    goal: goal ? 'within ±15 %' : '—',
    ...(goal ? { pass: Math.abs(error) <= 0.15 } : {}),
  });
  if (quick) {
    // The estimate is deterministic: a drift past ±25 % is a broken weight, never noise.
    rows.push({
      row: 'token-estimate',
      measure: `${name}: |estimate / exact − 1|`,
      figure: round(Math.abs(error) * 100, 1),
      unit: '%',
      goal: '—',
      gate: { max: 25 },
    });
    continue;
  }
  rows.push({
    row: 'token-estimate',
    measure: `${name}: worst file ≥ 500 chars (${worst.path.split('/').at(-1)})`,
    figure: round(worst.error * 100, 1),
    unit: '%',
    goal: '—',
  });
  rows.push({
    row: 'token-estimate',
    measure: `${name}: characters ÷ 4 vs exact`,
    figure: round((chars / 4 / exact - 1) * 100, 1),
    unit: '%',
    goal: '—',
  });
}

if (!quick) {
  const text = corpora.code.map((f) => f.text).join('\n');
  const per100k = (fn, runs) => {
    fn(text);
    const started = performance.now();
    for (let i = 0; i < runs; i += 1) fn(text);
    return (performance.now() - started) / runs / (text.length / 100_000);
  };
  rows.push({
    row: 'token-estimate',
    measure: 'estimateTokens, time per 100 KB of code',
    figure: round(per100k(estimateTokens, 10), 3),
    unit: 'ms',
    goal: '—',
  });
  rows.push({
    row: 'token-estimate',
    measure: 'exact tokenizer (gpt-tokenizer), time per 100 KB of code',
    figure: round(per100k(countTokens, 2), 2),
    unit: 'ms',
    goal: '—',
  });
}

report('token-estimate', rows, extra);
