import { matchBlockAnchor } from './block-anchor.js';
import {
  checkDeadline,
  createDeadline,
  type Deadline,
  MatchBudgetExceeded,
  NO_DEADLINE,
} from './deadline.js';
import { matchEscapeNormalized } from './escape-normalized.js';
import { Haystack } from './haystack.js';
import { stripReadLinePrefixes } from './line-prefix.js';
import {
  commonIndent,
  dedentLines,
  findWindows,
  framedBlock,
  splitOldBlock,
} from './line-window.js';
import { occurrences } from './literal.js';
import { type MatchSpan, STRATEGY_ORDER, type StrategyName } from './match-types.js';
import { normalizeEol } from './text-format.js';
import { matchUnicodeNormalized } from './unicode-normalized.js';
import { matchWholeLines, widenIndentedStart } from './whole-lines.js';

/**
 * Limits of the matcher.
 *
 * @example
 * findMatch(content, old, { budgetMs: MATCHER_LIMITS.budgetMs });
 */
export const MATCHER_LIMITS = {
  /** Hard time budget of the whole pipeline; past it the edit fails with "not found". */
  budgetMs: 250,
} as const;

/**
 * Options of {@link findMatch}.
 *
 * @example
 * const options: FindMatchOptions = { budgetMs: 100 };
 */
export interface FindMatchOptions {
  /** Time budget in milliseconds (default {@link MATCHER_LIMITS.budgetMs}). */
  budgetMs?: number;
  /** Clock in milliseconds, injectable for tests (default `performance.now`). */
  clock?: () => number;
}

/**
 * Outcome of {@link findMatch}. On success, `matches` are sorted by position and may overlap
 * (overlaps count as ambiguity; the caller drops them when replacing all).
 *
 * @example
 * const outcome = findMatch(content, old);
 * if (outcome.found) console.log(outcome.strategy, outcome.matches.length);
 * else console.log(outcome.reason); // 'not_found' | 'time_budget_exceeded'
 */
export type MatchOutcome =
  | {
      found: true;
      strategy: StrategyName;
      /** old_text matched only after dropping `N: ` prefixes copied from `read`. */
      lineNumberPrefixStripped: boolean;
      matches: MatchSpan[];
      elapsedMs: number;
    }
  | {
      found: false;
      reason: 'not_found' | 'time_budget_exceeded';
      elapsedMs: number;
    };

function haystackOf(content: string | Haystack): Haystack {
  return typeof content === 'string' ? new Haystack(content) : content;
}

/** Map occurrences in the normalised text back to original spans. */
function spansInNormalized(hay: Haystack, starts: readonly number[], length: number): MatchSpan[] {
  return starts.map((at) => {
    const start = hay.toOriginal(at);
    return { start, end: hay.toOriginal(at + length), line: hay.lineOf(start) };
  });
}

/**
 * Strategy 1, `exact`: literal occurrences of old_text (overlapping ones count, so an ambiguous
 * old_text is reported as such). One content line with a line break (`x = 1\n`) found after the
 * indentation of its line takes the whole line, new_text re-based onto it (see
 * `widenIndentedStart`), so a new_text written at the real depth is not indented twice.
 *
 * @example
 * matchExact('a = 1\nb = 2\n', 'b = 2'); // [{ start: 6, end: 11, line: 2 }]
 */
export function matchExact(
  content: string | Haystack,
  oldText: string,
  deadline: Deadline = NO_DEADLINE,
): MatchSpan[] {
  const hay = haystackOf(content);
  const spans = occurrences(hay.original, oldText, deadline).map((start) => ({
    start,
    end: start + oldText.length,
    line: hay.lineOf(start),
  }));
  return widenIndentedStart(hay, spans, normalizeEol(oldText));
}

/**
 * Strategy 2, `newline_normalized`: CRLF and lone CR become LF in both the file and old_text;
 * offsets are mapped back, so a CRLF file matched by LF old_text is replaced in place.
 *
 * @example
 * matchNewlineNormalized('a\r\nb\r\n', 'a\nb'); // [{ start: 0, end: 4, line: 1 }]
 */
export function matchNewlineNormalized(
  content: string | Haystack,
  oldText: string,
  deadline: Deadline = NO_DEADLINE,
): MatchSpan[] {
  const hay = haystackOf(content);
  const old = normalizeEol(oldText);
  // Nothing to normalise on either side: identical to `exact`.
  if (old === oldText && !hay.original.includes('\r')) return [];
  return widenIndentedStart(
    hay,
    spansInNormalized(hay, occurrences(hay.text, old, deadline), old.length),
    old,
  );
}

/**
 * Strategy 3, `trimmed`: old_text without its outer whitespace. When that whitespace is only
 * spaces and tabs, the rest is found anywhere and new_text loses the same outer whitespace when
 * it has it (see `adjust`). When it held a line break, old_text is about whole lines: it never
 * matches part of a line, but whole lines (its stray blank lines dropped, indentation compared
 * relatively), and new_text is re-based onto the matched lines (see `matchWholeLines`).
 *
 * @example
 * matchTrimmed('let a = 1;\n', '  let a = 1;  '); // [{ start: 0, end: 10, line: 1, adjust: … }]
 * matchTrimmed('def f():\n    x = 1\n', '\nx = 1\n'); // the whole line 2, re-based to '    '
 */
export function matchTrimmed(
  content: string | Haystack,
  oldText: string,
  deadline: Deadline = NO_DEADLINE,
): MatchSpan[] {
  const hay = haystackOf(content);
  const old = normalizeEol(oldText);
  const inner = old.trim();
  if (inner === '' || inner === old) return [];
  const leading = old.slice(0, old.length - old.trimStart().length);
  const trailing = old.slice(old.trimEnd().length);
  if (leading.includes('\n') || trailing.includes('\n')) {
    return matchWholeLines(hay, old, deadline);
  }
  return spansInNormalized(hay, occurrences(hay.text, inner, deadline), inner.length).map(
    (span) => ({ ...span, adjust: { kind: 'trim', leading, trailing } }),
  );
}

function windowSpans(
  hay: Haystack,
  starts: readonly number[],
  count: number,
  withNewline: boolean,
): MatchSpan[] {
  return starts.map((first) => {
    const span = hay.windowSpan(first, count, withNewline);
    return { ...span, line: hay.lineOf(span.start) };
  });
}

const trimEnd = (line: string): string => line.trimEnd();
const trimBoth = (line: string): string => line.trim();
/** Runs of spaces/tabs as one space, ends trimmed; the regex only runs where it changes something. */
const collapse = (line: string): string => {
  const trimmed = line.trim();
  return trimmed.includes('  ') || trimmed.includes('\t')
    ? trimmed.replace(/[ \t]+/g, ' ')
    : trimmed;
};

/**
 * Strategy 4, `line_trimmed`: whole lines, each compared with trailing whitespace removed.
 *
 * @example
 * matchLineTrimmed('if (a) {   \n  go();\n}\n', 'if (a) {\n  go();'); // [{ start: 0, end: 19, line: 1 }]
 */
export function matchLineTrimmed(
  content: string | Haystack,
  oldText: string,
  deadline: Deadline = NO_DEADLINE,
): MatchSpan[] {
  const hay = haystackOf(content);
  const block = splitOldBlock(normalizeEol(oldText));
  const starts = findWindows(
    hay.keys('trimEnd', trimEnd, deadline),
    block.lines.map(trimEnd),
    deadline,
  );
  return windowSpans(hay, starts, block.lines.length, block.endsWithNewline);
}

/**
 * Strategy 5, `indentation_flexible`: whole lines compared after removing each side's common
 * leading indent, so a block copied at the wrong depth still matches. `adjust` tells the caller
 * to re-base new_text from old_text's indent to the block's, keeping relative indentation.
 *
 * @example
 * matchIndentationFlexible('class A {\n    run() {\n        go();\n    }\n}\n', 'run() {\n    go();\n}');
 * // [{ start: 10, end: 41, line: 2, adjust: { kind: 'reindent', from: '', to: '    ' } }]
 */
export function matchIndentationFlexible(
  content: string | Haystack,
  oldText: string,
  deadline: Deadline = NO_DEADLINE,
): MatchSpan[] {
  const hay = haystackOf(content);
  const block = splitOldBlock(normalizeEol(oldText));
  const k = block.lines.length;
  const from = commonIndent(block.lines);
  const wanted = dedentLines(block.lines, from);
  const indents = new Map<number, string>();
  const starts = findWindows(
    hay.keys('trim', trimBoth, deadline),
    block.lines.map(trimBoth),
    deadline,
    (s) => {
      const window = hay.lines.slice(s, s + k);
      const to = commonIndent(window);
      const got = dedentLines(window, to);
      for (let j = 0; j < k; j += 1) if (got[j] !== wanted[j]) return false;
      indents.set(s, to);
      return true;
    },
  );
  return windowSpans(hay, starts, k, block.endsWithNewline).map((span, i) => {
    const to = indents.get(starts[i] as number) ?? '';
    return from === to ? span : { ...span, adjust: { kind: 'reindent', from, to } };
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Strategy 6, `whitespace_normalized`: runs of spaces/tabs count as one space and line ends are
 * trimmed. A one-line old_text may match inside a line; a multi-line one matches whole lines
 * (re-based like `indentation_flexible` when the indents differ).
 *
 * @example
 * matchWhitespaceNormalized('x  =   1;\n', 'x = 1;'); // [{ start: 0, end: 9, line: 1, adjust: … }]
 */
export function matchWhitespaceNormalized(
  content: string | Haystack,
  oldText: string,
  deadline: Deadline = NO_DEADLINE,
): MatchSpan[] {
  const hay = haystackOf(content);
  const old = normalizeEol(oldText);
  // A one-line old_text may match inside a line only when it has no line break at all.
  if (!old.includes('\n')) {
    const inner = old.trim();
    if (inner === '') return [];
    const pattern = new RegExp(
      inner
        .split(/[ \t]+/)
        .map(escapeRegExp)
        .join('[ \\t]+'),
      'g',
    );
    const leading = old.slice(0, old.length - old.trimStart().length);
    const trailing = old.slice(old.trimEnd().length);
    const spans: MatchSpan[] = [];
    for (const match of hay.text.matchAll(pattern)) {
      checkDeadline(deadline, spans.length + 1);
      const start = hay.toOriginal(match.index);
      spans.push({
        start,
        end: hay.toOriginal(match.index + match[0].length),
        line: hay.lineOf(start),
        adjust: { kind: 'trim', leading, trailing },
      });
    }
    return spans;
  }
  const framed = framedBlock(old);
  const block = framed ?? splitOldBlock(old);
  const k = block.lines.length;
  const from = commonIndent(block.lines);
  const starts = findWindows(
    hay.keys('collapse', collapse, deadline),
    block.lines.map(collapse),
    deadline,
  );
  return windowSpans(hay, starts, k, block.endsWithNewline).map((span, i) => {
    const first = starts[i] as number;
    const to = commonIndent(hay.lines.slice(first, first + k));
    if (framed) {
      const lineBreak = first + k < hay.lines.length;
      return { ...span, adjust: { kind: 'lines', from, to, lineBreak } };
    }
    return from === to ? span : { ...span, adjust: { kind: 'reindent', from, to } };
  });
}

/**
 * The strategy functions by name, in pipeline order (see {@link STRATEGY_ORDER}).
 *
 * @example
 * STRATEGIES.line_trimmed(content, old);
 */
export const STRATEGIES: Readonly<
  Record<
    StrategyName,
    (content: string | Haystack, oldText: string, deadline?: Deadline) => MatchSpan[]
  >
> = {
  exact: matchExact,
  newline_normalized: matchNewlineNormalized,
  trimmed: matchTrimmed,
  line_trimmed: matchLineTrimmed,
  indentation_flexible: matchIndentationFlexible,
  whitespace_normalized: matchWhitespaceNormalized,
  block_anchor: matchBlockAnchor,
  unicode_normalized: matchUnicodeNormalized,
  escape_normalized: matchEscapeNormalized,
};

function runPipeline(
  hay: Haystack,
  oldText: string,
  deadline: Deadline,
): { strategy: StrategyName; matches: MatchSpan[] } | undefined {
  for (const strategy of STRATEGY_ORDER) {
    if (deadline.expired()) throw new MatchBudgetExceeded();
    const matches = STRATEGIES[strategy](hay, oldText, deadline);
    if (matches.length > 0) return { strategy, matches };
  }
  return undefined;
}

/**
 * Find old_text in `content` with the degraded-matching pipeline: exact,
 * newline_normalized, trimmed, line_trimmed, indentation_flexible, whitespace_normalized,
 * block_anchor, unicode_normalized, escape_normalized; the first strategy with at least one
 * match wins (the last three only ever report exactly one). No strategy matches part of a line
 * when old_text spans lines only through whitespace it trimmed: those match whole lines. If none matches and every
 * line of old_text carries a consecutive `N: ` prefix copied from `read`, the pipeline runs once
 * more without the prefixes (`lineNumberPrefixStripped`). The whole search is bounded by a hard
 * time budget (250 ms by default), after which it reports `time_budget_exceeded` rather than
 * guess.
 *
 * @example
 * const outcome = findMatch('a\n    b\n', 'b');
 * // { found: true, strategy: 'exact', lineNumberPrefixStripped: false, matches: [{ start: 6, end: 7, line: 2 }], … }
 */
export function findMatch(
  content: string,
  oldText: string,
  options: FindMatchOptions = {},
): MatchOutcome {
  const deadline = createDeadline(options.budgetMs ?? MATCHER_LIMITS.budgetMs, options.clock);
  const hay = new Haystack(content);
  try {
    const direct = runPipeline(hay, oldText, deadline);
    if (direct) {
      return {
        found: true,
        ...direct,
        lineNumberPrefixStripped: false,
        elapsedMs: deadline.elapsedMs(),
      };
    }
    const stripped = stripReadLinePrefixes(normalizeEol(oldText));
    if (stripped !== undefined && stripped.trim() !== '') {
      const retry = runPipeline(hay, stripped, deadline);
      if (retry) {
        return {
          found: true,
          ...retry,
          lineNumberPrefixStripped: true,
          elapsedMs: deadline.elapsedMs(),
        };
      }
    }
    return { found: false, reason: 'not_found', elapsedMs: deadline.elapsedMs() };
  } catch (error) {
    if (error instanceof MatchBudgetExceeded) {
      return { found: false, reason: 'time_budget_exceeded', elapsedMs: deadline.elapsedMs() };
    }
    throw error;
  }
}
