import { type Deadline, NO_DEADLINE } from './deadline.js';
import { Haystack } from './haystack.js';
import { literalSpans } from './literal.js';
import type { MatchSpan, NewTextAdjustment } from './match-types.js';
import { normalizeEol } from './text-format.js';
import { matchWholeLines, widenIndentedStart } from './whole-lines.js';

/**
 * Unicode punctuation and spaces read as their ASCII forms. Every entry is one UTF-16 unit
 * mapped to one ASCII character, so folding keeps every offset (the ellipsis, three characters
 * in ASCII, is left out for that reason).
 */
const ASCII_FORM: Readonly<Record<string, string>> = {
  // Non-breaking, figure, thin, ideographic and other Unicode spaces.
  '\u00A0': ' ',
  '\u1680': ' ',
  '\u2000': ' ',
  '\u2001': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2004': ' ',
  '\u2005': ' ',
  '\u2006': ' ',
  '\u2007': ' ',
  '\u2008': ' ',
  '\u2009': ' ',
  '\u200A': ' ',
  '\u202F': ' ',
  '\u205F': ' ',
  '\u3000': ' ',
  // Hyphens, en and em dashes, the horizontal bar and the minus sign.
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  // Curly and low single quotes and the prime; curly and low double quotes and the double prime.
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u2032': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  '\u2033': '"',
};

const ASCII_BY_CODE = new Map<number, string>(
  Object.entries(ASCII_FORM).map(([char, ascii]) => [char.charCodeAt(0), ascii]),
);
/** Every foldable character is at or above this code unit, so most characters cost one compare. */
const FIRST_FOLDABLE = 0xa0;
/** What folding produces, and old_text characters that could stand for a folded one. */
const ASCII_TARGETS = /[ \t"'-]+/;

/**
 * `text` with Unicode dashes, quotes and spaces replaced by their ASCII forms, offset for offset.
 * A char-code loop rather than a regex replace: it runs over the whole file, and on a 1 MB file
 * full of curly quotes the callback per match of `replace` costs several times more.
 *
 * @example
 * foldTypography('a – “b”'); // 'a - "b"'
 */
export function foldTypography(text: string): string {
  let parts: string[] | undefined;
  let last = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < FIRST_FOLDABLE) continue;
    const ascii = ASCII_BY_CODE.get(code);
    if (ascii === undefined) continue;
    parts ??= [];
    parts.push(text.slice(last, i), ascii);
    last = i + 1;
  }
  if (parts === undefined) return text;
  parts.push(text.slice(last));
  return parts.join('');
}

/**
 * True when folded old_text cannot occur in the file: its longest run of characters that folding
 * never produces must appear in the file as it is. One `indexOf` that spares folding the file
 * when old_text is simply not there.
 */
function cannotOccur(text: string, foldedOld: string): boolean {
  let longest = '';
  for (const run of foldedOld.split(ASCII_TARGETS)) {
    for (const piece of run.split('\n')) if (piece.length > longest.length) longest = piece;
  }
  return longest !== '' && !text.includes(longest);
}

/**
 * Strategy 8, `unicode_normalized`: old_text and the file compared with en/em dashes, curly
 * quotes and non-breaking and other Unicode spaces read as ASCII — literally, else as whole lines
 * (indentation and stray blank lines tolerated). Used only when exactly one candidate exists.
 * Where old_text matched literally, the parts of new_text equal to old_text at its start and end
 * keep the file's characters, so only what the model changed is written in its spelling.
 *
 * @example
 * matchUnicodeNormalized('say “hi” – ok\n', 'say "hi" - ok');
 * // [{ start: 0, end: 13, line: 1, adjust: { kind: 'typography', … } }]
 */
export function matchUnicodeNormalized(
  content: string | Haystack,
  oldText: string,
  deadline: Deadline = NO_DEADLINE,
): MatchSpan[] {
  const hay = typeof content === 'string' ? new Haystack(content) : content;
  const old = normalizeEol(oldText);
  const foldedOld = foldTypography(old);
  if (cannotOccur(hay.text, foldedOld)) return [];
  const folded = hay.derived('typography', foldTypography);
  // Nothing folds on either side: the earlier strategies already saw exactly this.
  if (foldedOld === old && folded.original === hay.text) return [];
  const literal = literalSpans(folded, foldedOld, deadline);
  let spans: MatchSpan[];
  if (literal.length > 0) {
    if (literal.length !== 1) return [];
    const [span] = literal as [MatchSpan];
    // Folding keeps offsets, so the span cuts the file's own characters out of its text.
    const typography: NewTextAdjustment = {
      kind: 'typography',
      oldText: old,
      matched: hay.text.slice(span.start, span.end),
    };
    const [widened] = widenIndentedStart(folded, [span], foldedOld) as [MatchSpan];
    const adjust = widened.adjust ? { ...typography, next: widened.adjust } : typography;
    spans = [{ ...widened, adjust }];
  } else {
    spans = matchWholeLines(folded, foldedOld, deadline);
    if (spans.length !== 1) return [];
  }
  // The folded text is the file's LF-normalised text offset for offset: map back to the file.
  return spans.map((span) => {
    const start = hay.toOriginal(span.start);
    return { ...span, start, end: hay.toOriginal(span.end), line: hay.lineOf(start) };
  });
}
