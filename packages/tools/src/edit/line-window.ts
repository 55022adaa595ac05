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
 * Lines without their first `indent.length` characters and without trailing whitespace; blank
 * lines become empty. With `indent` = {@link commonIndent} of the lines, two blocks compare equal
 * when only their depth differs.
 *
 * @example
 * dedentLines(['    a  ', '      b', '  '], '    '); // ['a', '  b', '']
 */
export function dedentLines(lines: readonly string[], indent: string): string[] {
  return lines.map((line) => (isBlank(line) ? '' : line.slice(indent.length).trimEnd()));
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

/**
 * old_text split into its content and the stray blank lines around it: `leading` is every
 * whitespace-only line before the first content line (with their breaks), `trailing` everything
 * from the last content line's break on. The first content line keeps its indentation.
 *
 * @example
 * stripFraming('\n  x = 1\n\n'); // { leading: '\n', core: '  x = 1', trailing: '\n\n' }
 */
export interface Framing {
  leading: string;
  core: string;
  trailing: string;
}

const isSpaceOrTab = (code: number): boolean => code === 32 || code === 9;

/**
 * Split LF-normalised text into {@link Framing}.
 *
 * @example
 * stripFraming('a\nb'); // { leading: '', core: 'a\nb', trailing: '' }
 */
export function stripFraming(text: string): Framing {
  let lastBreak = -1;
  let i = 0;
  for (; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 10) lastBreak = i;
    else if (!isSpaceOrTab(code)) break;
  }
  if (i === text.length) return { leading: text, core: '', trailing: '' };
  const leading = text.slice(0, lastBreak + 1);
  let firstBreak = -1;
  let j = text.length - 1;
  for (; j > lastBreak; j -= 1) {
    const code = text.charCodeAt(j);
    if (code === 10) firstBreak = j;
    else if (!isSpaceOrTab(code)) break;
  }
  const end = firstBreak === -1 ? text.length : firstBreak;
  return { leading, core: text.slice(leading.length, end), trailing: text.slice(end) };
}

/**
 * old_text's content lines when it has stray blank lines around them (a blank line before the
 * first, or anything but one line break after the last), to be matched as whole lines with
 * their break; undefined when it has none, so the block is old_text itself.
 *
 * @example
 * framedBlock('\na\nb\n'); // { lines: ['a', 'b'], endsWithNewline: true }
 * framedBlock('a\nb\n'); // undefined
 */
export function framedBlock(normalizedOld: string): OldBlock | undefined {
  const { leading, core, trailing } = stripFraming(normalizedOld);
  if (core === '' || (leading === '' && (trailing === '' || trailing === '\n'))) return undefined;
  return { lines: core.split('\n'), endsWithNewline: true };
}
