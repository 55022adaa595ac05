/**
 * A short line diff between a committed report and a fresh one, so a failing check shows what changed.
 *
 * Hand-rolled on purpose: no diff library is a direct dependency of the repository (API Extractor's
 * own is private to it), and this only has to show a reviewer a few changed lines of files of at most
 * a few thousand lines. The common head and tail are cut first, so the quadratic step only sees the
 * changed middle.
 */

/** One line of a diff: kept (` `), removed (`-`) or added (`+`). */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** Above this many cells the middle is shown as "all removed, all added" instead of aligned. */
const MAX_ALIGNED_CELLS = 4_000_000;

function alignMiddle(before: readonly string[], after: readonly string[]): DiffLine[] {
  const rows = before.length;
  const cols = after.length;
  if (rows * cols > MAX_ALIGNED_CELLS) {
    return [
      ...before.map((text): DiffLine => ({ op: '-', text })),
      ...after.map((text): DiffLine => ({ op: '+', text })),
    ];
  }
  // Longest common subsequence lengths of the suffixes, then one walk from the top.
  const width = cols + 1;
  const lcs = new Uint32Array((rows + 1) * width);
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = cols - 1; j >= 0; j--) {
      lcs[i * width + j] =
        before[i] === after[j]
          ? (lcs[(i + 1) * width + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < rows && j < cols) {
    if (before[i] === after[j]) {
      out.push({ op: ' ', text: before[i] as string });
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number)) {
      out.push({ op: '-', text: before[i++] as string });
    } else {
      out.push({ op: '+', text: after[j++] as string });
    }
  }
  while (i < rows) out.push({ op: '-', text: before[i++] as string });
  while (j < cols) out.push({ op: '+', text: after[j++] as string });
  return out;
}

/** The lines of a text; a final newline ends the last line rather than starting an empty one. */
function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * Every line of `before` and `after`, each marked kept, removed or added.
 *
 * @example
 * diffLines('a\nb\n', 'a\nc\n');
 * // [{ op: ' ', text: 'a' }, { op: '-', text: 'b' }, { op: '+', text: 'c' }]
 */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = linesOf(before);
  const b = linesOf(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const kept = (text: string): DiffLine => ({ op: ' ', text });
  return [
    ...a.slice(0, head).map(kept),
    ...alignMiddle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map(kept),
  ];
}

/**
 * The changes between two texts in unified-diff style (`@@ -old +new @@` hunks with `context` kept lines
 * around each change), cut after `maxLines` lines with a note saying how many were left out. Empty when
 * the texts are equal.
 *
 * @example
 * shortDiff('a\nb\n', 'a\nc\n', { context: 1 });
 * // ['@@ -1,2 +1,2 @@', ' a', '-b', '+c']
 */
export function shortDiff(
  before: string,
  after: string,
  options: { context?: number; maxLines?: number } = {},
): string[] {
  const context = options.context ?? 2;
  const maxLines = options.maxLines ?? 40;
  const lines = diffLines(before, after);
  const changed = lines.flatMap((line, index) => (line.op === ' ' ? [] : [index]));
  if (changed.length === 0) return [];

  // Group the changes whose context windows touch into hunks of [start, end) indexes into `lines`.
  const hunks: Array<[number, number]> = [];
  for (const index of changed) {
    const start = Math.max(0, index - context);
    const end = Math.min(lines.length, index + context + 1);
    const last = hunks.at(-1);
    if (last && start <= last[1]) last[1] = end;
    else hunks.push([start, end]);
  }

  // Line numbers in each text at every index of `lines`, for the hunk headers.
  const oldLine: number[] = [];
  const newLine: number[] = [];
  let o = 1;
  let n = 1;
  for (const line of lines) {
    oldLine.push(o);
    newLine.push(n);
    if (line.op !== '+') o++;
    if (line.op !== '-') n++;
  }

  const out: string[] = [];
  for (const [start, end] of hunks) {
    const slice = lines.slice(start, end);
    const oldCount = slice.filter((line) => line.op !== '+').length;
    const newCount = slice.filter((line) => line.op !== '-').length;
    out.push(`@@ -${oldLine[start]},${oldCount} +${newLine[start]},${newCount} @@`);
    for (const line of slice) out.push(`${line.op}${line.text}`);
  }
  if (out.length <= maxLines) return out;
  return [...out.slice(0, maxLines), `… ${out.length - maxLines} more diff lines`];
}
