import { READ_LIMITS } from './limits.js';

/** Room kept for the footer and notes so the whole output stays under maxOutputBytes. */
const FOOTER_RESERVE_BYTES = 1024;
const BUDGET = READ_LIMITS.maxOutputBytes - FOOTER_RESERVE_BYTES;
const NEWLINE = 0x0a;

/**
 * The lines `read` shows and where they sit in the file.
 *
 * @example
 * const shown: RenderResult = renderText('a\nb\n', 1, 2000) as RenderResult; // content '1: a\n2: b'
 */
export interface RenderResult {
  content: string;
  /** Characters of `content` that are the closing paging note (0 when there is none). */
  footerChars: number;
  startLine: number;
  endLine: number;
  totalLines: number;
  truncated: boolean;
  nextOffset?: number;
  cutLines: number;
}

/**
 * `offset` is past the last line; `beyond` is how many lines the file has.
 *
 * @example
 * const past: BeyondEnd = { beyond: 10 };
 */
export interface BeyondEnd {
  beyond: number;
}

/** Cut a long line at maxLineChars without splitting a surrogate pair. */
function cutLine(line: string): string {
  if (line.length <= READ_LIMITS.maxLineChars) return line;
  let end = READ_LIMITS.maxLineChars;
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${line.slice(0, end)} … [line truncated: ${line.length} chars total]`;
}

/** Count lines the way `wc -l` + a final unterminated line would: "a\nb\n" and "a\nb" are 2. */
function countLines(text: string, from: number, linesSoFar: number): number {
  let count = linesSoFar;
  let pos = from;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    count += 1;
    if (nl === -1) break;
    pos = nl + 1;
  }
  return count;
}

/**
 * Lines of `bytes` from byte `from` on, counted like {@link countLines}. Done on the bytes:
 * `\n` (0x0a) never occurs inside a multi-byte UTF-8 sequence, so nothing needs decoding.
 */
function countByteLines(bytes: Uint8Array, from: number): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let count = 0;
  let pos = from;
  while (pos < buffer.length) {
    const nl = buffer.indexOf(NEWLINE, pos);
    count += 1;
    if (nl === -1) break;
    pos = nl + 1;
  }
  return count;
}

/** Where a window of text sits: the number of its first line and how many lines follow it. */
interface TextWindow {
  firstLine: number;
  linesAfter: number;
}

/**
 * Select and number lines [offset, offset + limit) of `text` under the byte budget, then add a
 * footer. `text` may be a window of the file: its first line is `window.firstLine`, and
 * `window.linesAfter` more lines follow it in the file.
 *
 * @example
 * renderText('a\nb\nc\n', 2, 1); // content '2: b\n\n[showing lines 2-2 of 3; continue with offset=3]'
 */
export function renderText(
  text: string,
  offset: number,
  limit: number,
  window: TextWindow = { firstLine: 1, linesAfter: 0 },
): RenderResult | BeyondEnd {
  const out: string[] = [];
  let bytes = 0;
  let lineNo = window.firstLine - 1;
  let pos = 0;
  let endLine = offset - 1;
  let cutLines = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl === -1 ? text.length : nl;
    lineNo += 1;
    const next = nl === -1 ? text.length : nl + 1;
    if (lineNo >= offset) {
      if (lineNo >= offset + limit) {
        // Past the requested window: only the total is still needed.
        const total = countLines(text, pos, lineNo - 1) + window.linesAfter;
        return finish(out, offset, endLine, total, false, cutLines);
      }
      let line = text.slice(pos, lineEnd);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      const shown = cutLine(line);
      if (shown !== line) cutLines += 1;
      const entry = `${lineNo}: ${shown}`;
      const entryBytes = Buffer.byteLength(entry, 'utf8') + 1;
      if (out.length > 0 && bytes + entryBytes > BUDGET) {
        const total = countLines(text, pos, lineNo - 1) + window.linesAfter;
        return finish(out, offset, endLine, total, true, cutLines);
      }
      out.push(entry);
      bytes += entryBytes;
      endLine = lineNo;
    }
    pos = next;
  }
  const total = lineNo + window.linesAfter;
  if (offset > total) return { beyond: total };
  return finish(out, offset, endLine, total, false, cutLines);
}

/**
 * {@link renderText} for UTF-8 bytes (without a BOM), decoding only the lines that can be shown.
 * Lines are found on the bytes with `Buffer.indexOf(0x0a)`; the byte range from line `offset` to
 * the last line that can fit the output budget is decoded once, by `decode`; the lines after it
 * are only counted. A large file therefore costs one pass of `indexOf` plus the decoding of about
 * one output's worth of text, instead of decoding and splitting the whole file.
 *
 * The range is chosen with a lower bound of each line's shown size (its bytes less a `\r`, or a
 * cut line's 2,000 characters, plus its number), so the line at which the real output budget runs
 * out is always inside it, and the result is the same as rendering the whole decoded text.
 *
 * @example
 * renderUtf8(Buffer.from('a\nb\n'), 2, 2000, (bytes) => Buffer.from(bytes).toString('utf8'));
 * // content '2: b\n\n[showing lines 2-2 of 2; end of file]'
 */
export function renderUtf8(
  body: Uint8Array,
  offset: number,
  limit: number,
  decode: (bytes: Uint8Array) => string,
): RenderResult | BeyondEnd {
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  let pos = 0;
  let before = 0;
  while (before < offset - 1 && pos < buffer.length) {
    const nl = buffer.indexOf(NEWLINE, pos);
    before += 1;
    pos = nl === -1 ? buffer.length : nl + 1;
  }
  if (pos >= buffer.length) return { beyond: before };
  const start = pos;
  let lines = 0;
  let atLeast = 0;
  while (pos < buffer.length && lines < limit) {
    const nl = buffer.indexOf(NEWLINE, pos);
    const end = nl === -1 ? buffer.length : nl;
    lines += 1;
    const lineNo = offset + lines - 1;
    atLeast +=
      Math.min(Math.max(end - pos - 1, 0), READ_LIMITS.maxLineChars) + String(lineNo).length + 3;
    pos = nl === -1 ? buffer.length : nl + 1;
    // Two lines at least: the first line is shown whatever its size, the cap falls on a later one.
    if (atLeast > BUDGET && lines >= 2) break;
  }
  const text = decode(buffer.subarray(start, pos));
  return renderText(text, offset, limit, {
    firstLine: offset,
    linesAfter: countByteLines(buffer, pos),
  });
}

function finish(
  out: string[],
  startLine: number,
  endLine: number,
  totalLines: number,
  cappedByBytes: boolean,
  cutLines: number,
): RenderResult {
  let content = out.join('\n');
  const body = content.length;
  const truncated = endLine < totalLines;
  let nextOffset: number | undefined;
  if (truncated) {
    nextOffset = endLine + 1;
    const why = cappedByBytes ? `; output capped at ${READ_LIMITS.maxOutputBytes / 1024} KiB` : '';
    content += `\n\n[showing lines ${startLine}-${endLine} of ${totalLines}${why}; continue with offset=${nextOffset}]`;
  } else if (startLine > 1) {
    content += `\n\n[showing lines ${startLine}-${endLine} of ${totalLines}; end of file]`;
  }
  const result: RenderResult = {
    content,
    footerChars: content.length - body,
    startLine,
    endLine,
    totalLines,
    truncated,
    cutLines,
  };
  if (nextOffset !== undefined) result.nextOffset = nextOffset;
  return result;
}
