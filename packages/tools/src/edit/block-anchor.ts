import { checkDeadline, type Deadline, MatchBudgetExceeded, NO_DEADLINE } from './deadline.js';
import { Haystack } from './haystack.js';
import { boundedLevenshtein, levenshteinSimilarity } from './levenshtein.js';
import { commonIndent, framedBlock, splitOldBlock } from './line-window.js';
import type { MatchSpan } from './match-types.js';
import { normalizeEol } from './text-format.js';

/**
 * Tuning of the `block_anchor` strategy.
 *
 * @example
 * BLOCK_ANCHOR_LIMITS.minSimilarity; // 0.8
 */
export const BLOCK_ANCHOR_LIMITS = {
  /** Middle lines must be at least this similar (Levenshtein similarity). */
  minSimilarity: 0.8,
  /** Candidate blocks are between `k / spanFactor` and `k * spanFactor` lines long. */
  spanFactor: 1.5,
  /** Lines longer than this are compared for equality only, never by edit distance. */
  maxLevenshteinLineChars: 1000,
  /** Middles with a different line count are compared as joined text only up to this size. */
  maxJoinedChars: 4000,
} as const;

/** Anchors made only of punctuation (`}`, `)`, `];`) are too common to identify a block. */
const WORD_CHAR = /[\p{L}\p{N}_]/u;

const trimLine = (line: string): string => line.trim();

/**
 * Similarity of two middles of equal line count, as one weighted edit distance over all lines
 * with a shared budget, so a clearly different block stops after a few lines.
 */
function lineByLineSimilarity(a: readonly string[], b: readonly string[], min: number): number {
  let total = 0;
  for (let i = 0; i < a.length; i += 1) {
    total += Math.max((a[i] as string).length, (b[i] as string).length);
  }
  if (total === 0) return 1;
  let remaining = Math.floor((1 - min) * total + 1e-9);
  let used = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x === y) continue;
    const longest = Math.max(x.length, y.length);
    const distance =
      longest > BLOCK_ANCHOR_LIMITS.maxLevenshteinLineChars
        ? longest
        : boundedLevenshtein(x, y, remaining);
    used += distance;
    remaining -= distance;
    if (remaining < 0) return 0;
  }
  return 1 - used / total;
}

function middleSimilarity(oldMiddle: readonly string[], fileMiddle: readonly string[]): number {
  const min = BLOCK_ANCHOR_LIMITS.minSimilarity;
  if (oldMiddle.length === fileMiddle.length)
    return lineByLineSimilarity(oldMiddle, fileMiddle, min);
  const a = oldMiddle.join('\n');
  const b = fileMiddle.join('\n');
  if (Math.max(a.length, b.length) > BLOCK_ANCHOR_LIMITS.maxJoinedChars) return 0;
  return levenshteinSimilarity(a, b, min);
}

/**
 * Strategy 7, `block_anchor`: old_text of at least 3 lines whose first and last lines occur in
 * the file (compared trimmed) with similar middle lines in between (similarity ≥ 0.8), the
 * block being between k/1.5 and 1.5·k lines long. For each start anchor only the most similar
 * end is kept, and a match is returned only when exactly one block qualifies in the whole file;
 * otherwise the result is empty (too risky to guess, cf. opencode #14046/#24742).
 * Forward scans are bounded, and Levenshtein runs only on lines ≤ 1,000 chars with an early
 * exit, so the cost stays near O(file lines · k).
 *
 * @example
 * matchBlockAnchor('fn a() {\n  let x = 1;\n  return x;\n}\n', 'fn a() {\n  let x = 2;\n  return x;\n}');
 * // [{ start: 0, end: 35, line: 1 }]
 */
export function matchBlockAnchor(
  content: string | Haystack,
  oldText: string,
  deadline: Deadline = NO_DEADLINE,
): MatchSpan[] {
  const hay = typeof content === 'string' ? new Haystack(content) : content;
  const old = normalizeEol(oldText);
  // Stray blank lines around old_text would make its first or last line empty: drop them.
  const framed = framedBlock(old);
  const block = framed ?? splitOldBlock(old);
  const k = block.lines.length;
  if (k < 3) return [];
  const oldKeys = block.lines.map(trimLine);
  const first = oldKeys[0] as string;
  const last = oldKeys[k - 1] as string;
  if (first === '' || last === '') return [];
  if (!WORD_CHAR.test(first) && !WORD_CHAR.test(last)) return [];
  const oldMiddle = oldKeys.slice(1, k - 1);

  const keys = hay.keys('trim', trimLine, deadline);
  const minLength = Math.max(3, Math.floor(k / BLOCK_ANCHOR_LIMITS.spanFactor));
  const maxLength = Math.ceil(k * BLOCK_ANCHOR_LIMITS.spanFactor);
  const found: { start: number; length: number }[] = [];

  for (let start = 0; start < keys.length; start += 1) {
    checkDeadline(deadline, start);
    if (keys[start] !== first) continue;
    let best: { length: number; similarity: number } | undefined;
    for (let length = minLength; length <= maxLength; length += 1) {
      const end = start + length - 1;
      if (end >= keys.length) break;
      if (keys[end] !== last) continue;
      if (deadline.expired()) throw new MatchBudgetExceeded();
      const similarity = middleSimilarity(oldMiddle, keys.slice(start + 1, end));
      if (similarity < BLOCK_ANCHOR_LIMITS.minSimilarity) continue;
      const better =
        best === undefined ||
        similarity > best.similarity ||
        (similarity === best.similarity && Math.abs(length - k) < Math.abs(best.length - k));
      if (better) best = { length, similarity };
    }
    if (best) {
      found.push({ start, length: best.length });
      if (found.length > 1) return [];
    }
  }
  const only = found[0];
  if (only === undefined) return [];
  const span = hay.windowSpan(only.start, only.length, block.endsWithNewline);
  const match: MatchSpan = { ...span, line: hay.lineOf(span.start) };
  const from = commonIndent(block.lines);
  const to = commonIndent(hay.lines.slice(only.start, only.start + only.length));
  if (framed) {
    const lineBreak = only.start + only.length < hay.lines.length;
    match.adjust = { kind: 'lines', from, to, lineBreak };
  } else if (from !== to) {
    match.adjust = { kind: 'reindent', from, to };
  }
  return [match];
}
