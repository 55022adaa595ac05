import type { Deadline } from './deadline.js';
import type { Haystack } from './haystack.js';
import { commonIndent, dedentLines, findWindows, isBlank, stripFraming } from './line-window.js';
import type { MatchSpan } from './match-types.js';

const trimBoth = (line: string): string => line.trim();
const LEADING_INDENT = /^[ \t]*/;

/**
 * Whole-line matching of old_text's content: its stray blank lines (before the first and after
 * the last content line) are dropped, and the remaining lines match file lines that are equal
 * once each side's common indentation and trailing whitespace are removed, so relative
 * indentation must agree. Spans cover whole lines with their line break, and tell `applyEdit` to
 * treat new_text the same way (`lines`): blank lines around it dropped, re-based from old_text's
 * indent to the block's, line break put back. Where several blocks qualify, those at old_text's
 * own indentation are preferred; if none is, all are returned (the caller reports ambiguity).
 *
 * This is how a strategy that trims old_text can never match part of a line: a trim that
 * removed a line break falls back to whole lines here.
 *
 * @example
 * matchWholeLines(new Haystack('def f():\n    x = 1\n'), '\nx = 1\n', NO_DEADLINE);
 * // [{ start: 9, end: 19, line: 2, adjust: { kind: 'lines', from: '', to: '    ', lineBreak: true } }]
 */
export function matchWholeLines(
  hay: Haystack,
  normalizedOld: string,
  deadline: Deadline,
): MatchSpan[] {
  const { core } = stripFraming(normalizedOld);
  if (isBlank(core)) return [];
  const lines = core.split('\n');
  const k = lines.length;
  const from = commonIndent(lines);
  const wanted = dedentLines(lines, from);
  const indents = new Map<number, string>();
  const starts = findWindows(
    hay.keys('trim', trimBoth, deadline),
    lines.map(trimBoth),
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
  const atSameDepth = starts.filter((s) => indents.get(s) === from);
  const chosen = starts.length > 1 && atSameDepth.length > 0 ? atSameDepth : starts;
  return chosen.map((first) => {
    const window = hay.windowSpan(first, k, true);
    const lineBreak = first + k < hay.lines.length;
    const to = indents.get(first) ?? '';
    return {
      ...window,
      line: hay.lineOf(window.start),
      adjust: { kind: 'lines', from, to, lineBreak },
    };
  });
}

/**
 * A literal match of old_text whose only content line is followed by a line break (`x = 1\n`)
 * but which starts after the indentation of its file line matched part of that line. Such a
 * span is widened to the start of the line and new_text is re-based onto the line's full
 * indentation, so a new_text written at the file's real depth is not indented twice. Other
 * spans (old_text with several content lines, or without a line break) stay literal.
 *
 * @example
 * widenIndentedStart(new Haystack('def f():\n    x = 1\n'), [{ start: 13, end: 19, line: 2 }], 'x = 1\n');
 * // [{ start: 9, end: 19, line: 2, adjust: { kind: 'reindent', from: '', to: '    ' } }]
 */
export function widenIndentedStart(
  hay: Haystack,
  spans: MatchSpan[],
  normalizedOld: string,
): MatchSpan[] {
  if (!normalizedOld.includes('\n') || spans.length === 0) return spans;
  const { leading, core } = stripFraming(normalizedOld);
  if (leading !== '' || core.includes('\n')) return spans;
  const own = LEADING_INDENT.exec(core)?.[0] ?? '';
  const text = hay.original;
  return spans.map((span) => {
    const lineStart = text.lastIndexOf('\n', span.start - 1) + 1;
    const before = text.slice(lineStart, span.start);
    if (before === '' || !/^[ \t]+$/.test(before)) return span;
    return {
      ...span,
      start: lineStart,
      adjust: { kind: 'reindent', from: own, to: before + own },
    };
  });
}
