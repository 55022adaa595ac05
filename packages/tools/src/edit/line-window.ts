import { checkDeadline, type Deadline } from './deadline.js';

/**
 * old_text (LF-normalised) as a block of lines. A final line break is remembered rather than
 * kept as an empty last line, so a window can include the matched lines' own break.
 *
 * @example
 * splitOldBlock('a\nb\n'); // { lines: ['a', 'b'], endsWithNewline: true }
 */
export interface OldBlock {
  lines: string[];
  endsWithNewline: boolean;
}

/**
 * Split LF-normalised old_text into an {@link OldBlock}.
 *
 * @example
 * splitOldBlock('  x'); // { lines: ['  x'], endsWithNewline: false }
 */
export function splitOldBlock(normalizedOld: string): OldBlock {
  const endsWithNewline = normalizedOld.endsWith('\n');
  const body = endsWithNewline ? normalizedOld.slice(0, -1) : normalizedOld;
  return { lines: body.split('\n'), endsWithNewline };
}

/**
 * True when the line holds nothing but whitespace.
 *
 * @example
 * isBlank(' \t'); // true
 */
export function isBlank(line: string): boolean {
  return line.trim() === '';
}

/**
 * Longest run of leading spaces/tabs shared literally by every non-blank line (a tab and four
 * spaces are different indents). Blank lines do not count.
 *
 * @example
 * commonIndent(['    a', '      b', '', '    c']); // '    '
 * commonIndent(['\tx', '    y']); // ''
 */
export function commonIndent(lines: readonly string[]): string {
  let prefix: string | undefined;
  for (const line of lines) {
    if (isBlank(line)) continue;
    const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
    if (prefix === undefined) {
      prefix = indent;
      continue;
    }
    let n = 0;
    const max = Math.min(prefix.length, indent.length);
    while (n < max && prefix.charCodeAt(n) === indent.charCodeAt(n)) n += 1;
    prefix = prefix.slice(0, n);
    if (prefix === '') break;
  }
  return prefix ?? '';
}

/**
 * Start lines of every window of `oldKeys.length` file lines whose keys all equal `oldKeys`
 * (and pass `verify`, if given). One distinctive line (the longest key) is checked first, so a
 * miss costs one string comparison per file line, never a window scan per line.
 * Returns nothing when every old key is empty: blank blocks are not matched fuzzily.
 *
 * @example
 * findWindows(['a', 'b', 'c', 'b'], ['b', 'c'], NO_DEADLINE); // [1]
 */
export function findWindows(
  fileKeys: readonly string[],
  oldKeys: readonly string[],
  deadline: Deadline,
  verify?: (start: number) => boolean,
): number[] {
  const k = oldKeys.length;
  let anchor = 0;
  for (let j = 1; j < k; j += 1) {
    if ((oldKeys[j] as string).length > (oldKeys[anchor] as string).length) anchor = j;
  }
  const anchorKey = oldKeys[anchor] as string;
  if (k === 0 || anchorKey === '') return [];
  const starts: number[] = [];
  const lastStart = fileKeys.length - k;
  for (let start = 0; start <= lastStart; start += 1) {
    checkDeadline(deadline, start);
    if (fileKeys[start + anchor] !== anchorKey) continue;
    let ok = true;
    for (let j = 0; j < k; j += 1) {
      if (fileKeys[start + j] !== oldKeys[j]) {
        ok = false;
        break;
      }
    }
    if (ok && (verify === undefined || verify(start))) starts.push(start);
  }
  return starts;
}
