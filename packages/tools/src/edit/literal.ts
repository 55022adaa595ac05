import { checkDeadline, type Deadline } from './deadline.js';
import type { Haystack } from './haystack.js';
import type { MatchSpan } from './match-types.js';
import { matchWholeLines, widenIndentedStart } from './whole-lines.js';

/**
 * Every occurrence of `needle` in `text`, overlapping ones included.
 *
 * @example
 * occurrences('aaa', 'aa', NO_DEADLINE); // [0, 1]
 */
export function occurrences(text: string, needle: string, deadline: Deadline): number[] {
  const found: number[] = [];
  if (needle === '') return found;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) {
    checkDeadline(deadline, found.length + 1);
    found.push(i);
  }
  return found;
}

/**
 * Literal occurrences of LF-normalised `old` in the haystack's LF-normalised text, as spans of
 * its original text (not yet widened; see {@link widenIndentedStart}).
 *
 * @example
 * literalSpans(new Haystack('a\r\nb\r\n'), 'a\nb', NO_DEADLINE); // [{ start: 0, end: 4, line: 1 }]
 */
export function literalSpans(hay: Haystack, old: string, deadline: Deadline): MatchSpan[] {
  return occurrences(hay.text, old, deadline).map((at) => {
    const start = hay.toOriginal(at);
    return { start, end: hay.toOriginal(at + old.length), line: hay.lineOf(start) };
  });
}

/**
 * The matching the last-resort strategies run on a transformed old_text: literal occurrences
 * (a single indented line widened to the whole line), else whole lines with indentation and
 * stray blank lines tolerated.
 *
 * @example
 * literalOrWholeLines(new Haystack('  a = 1\n'), '\na = 1\n', NO_DEADLINE).length; // 1
 */
export function literalOrWholeLines(hay: Haystack, old: string, deadline: Deadline): MatchSpan[] {
  const literal = literalSpans(hay, old, deadline);
  if (literal.length > 0) return widenIndentedStart(hay, literal, old);
  return matchWholeLines(hay, old, deadline);
}
