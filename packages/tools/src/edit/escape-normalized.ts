import { type Deadline, NO_DEADLINE } from './deadline.js';
import { decodeEscapes, escapeKindsOf } from './escapes.js';
import { Haystack } from './haystack.js';
import { isBlank } from './line-window.js';
import { literalOrWholeLines } from './literal.js';
import type { MatchSpan } from './match-types.js';
import { normalizeEol } from './text-format.js';

/**
 * Strategy 9, `escape_normalized`: old_text written with literal escapes — `\n`, `\t`, `\"`,
 * `\'`, `\\` as two characters, as when text is escaped once too often on its way into a JSON
 * argument — compared with those escapes decoded, literally, else as whole lines. Used only when
 * exactly one candidate exists. new_text is decoded too, but only the kinds of escape old_text
 * carried, so a new_text written cleanly is left alone.
 *
 * @example
 * matchEscapeNormalized('print("hi")\n', 'print(\\"hi\\")');
 * // [{ start: 0, end: 11, line: 1, adjust: { kind: 'unescape', kinds: '"' } }]
 */
export function matchEscapeNormalized(
  content: string | Haystack,
  oldText: string,
  deadline: Deadline = NO_DEADLINE,
): MatchSpan[] {
  const old = normalizeEol(oldText);
  const kinds = escapeKindsOf(old);
  if (kinds === '') return [];
  const decoded = decodeEscapes(old, kinds);
  if (isBlank(decoded)) return [];
  const hay = typeof content === 'string' ? new Haystack(content) : content;
  const spans = literalOrWholeLines(hay, decoded, deadline);
  if (spans.length !== 1) return [];
  const [span] = spans as [MatchSpan];
  const adjust: MatchSpan['adjust'] = span.adjust
    ? { kind: 'unescape', kinds, next: span.adjust }
    : { kind: 'unescape', kinds };
  return [{ ...span, adjust }];
}
