import { stripNewTextPrefixes } from './line-prefix.js';
import type { MatchSpan } from './match-types.js';
import { adaptNewText } from './new-text.js';
import {
  convertEol,
  detectEol,
  normalizeEol,
  type TextFormat,
  withTrailingNewline,
} from './text-format.js';

/**
 * Input of {@link applyEdit}.
 *
 * @example
 * const input: ApplyEditInput = { body, matches: [span], newText: 'x', format,
 *   stripLinePrefixes: false };
 */
export interface ApplyEditInput {
  /** The file text without its BOM. */
  body: string;
  /** Matches to replace, sorted by position; overlapping ones are skipped. */
  matches: readonly MatchSpan[];
  newText: string;
  format: TextFormat;
  /** old_text matched only without `read` prefixes: drop them from new_text too. */
  stripLinePrefixes: boolean;
}

/**
 * Result of {@link applyEdit}: the new body (still without BOM) and where the first
 * replacement landed, for the snippet.
 *
 * @example
 * const { text, replacements, first } = applyEdit(input);
 */
export interface AppliedEdit {
  text: string;
  replacements: number;
  /** Offsets in `text` of the first replacement, and its 1-based line. */
  first: { start: number; end: number; line: number };
  /** Lines of the file before and after, for the summary. */
  linesBefore: number;
  linesAfter: number;
}

function countLines(text: string): number {
  if (text === '') return 0;
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count += 1;
  return text.endsWith('\n') ? count - 1 : count;
}

/**
 * Matches without overlaps, left to right (with `replace_all`, `aa` in `aaaa` is two
 * replacements, not three).
 *
 * @example
 * nonOverlapping([{ start: 0, end: 2, line: 1 }, { start: 1, end: 3, line: 1 }]).length; // 1
 */
export function nonOverlapping(matches: readonly MatchSpan[]): MatchSpan[] {
  const kept: MatchSpan[] = [];
  let end = -1;
  for (const match of [...matches].sort((a, b) => a.start - b.start)) {
    if (match.start < end) continue;
    kept.push(match);
    end = match.end;
  }
  return kept;
}

/**
 * Replace every given match with new_text, adapted per match (fuzzy-strategy adjustment, then
 * the line endings of the replaced region, or the file's dominant style when the region has
 * none), and keep the file's trailing-newline state.
 *
 * @example
 * applyEdit({ body: 'a\r\nb\r\n', matches: [{ start: 3, end: 4, line: 2 }], newText: 'x\ny',
 *   format: detectTextFormat('a\r\nb\r\n'), stripLinePrefixes: false }).text; // 'a\r\nx\r\ny\r\n'
 */
export function applyEdit(input: ApplyEditInput): AppliedEdit {
  const { body, format } = input;
  const chosen = nonOverlapping(input.matches);
  let newText = normalizeEol(input.newText);
  if (input.stripLinePrefixes) newText = stripNewTextPrefixes(newText);
  const parts: string[] = [];
  let cursor = 0;
  let length = 0;
  let first: AppliedEdit['first'] | undefined;
  for (const match of chosen) {
    const before = body.slice(cursor, match.start);
    const eol = detectEol(body.slice(match.start, match.end)) ?? format.eol;
    const replacement = convertEol(adaptNewText(newText, match.adjust), eol);
    parts.push(before, replacement);
    length += before.length;
    if (first === undefined) {
      first = { start: length, end: length + replacement.length, line: match.line };
    }
    length += replacement.length;
    cursor = match.end;
  }
  parts.push(body.slice(cursor));
  const text = withTrailingNewline(parts.join(''), format.trailingNewline, format.eol);
  const firstSpan = first ?? { start: 0, end: 0, line: 1 };
  return {
    text,
    replacements: chosen.length,
    first: {
      start: Math.min(firstSpan.start, text.length),
      end: Math.min(firstSpan.end, text.length),
      line: firstSpan.line,
    },
    linesBefore: countLines(body),
    linesAfter: countLines(text),
  };
}
