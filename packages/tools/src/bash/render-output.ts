import { constants as osConstants } from 'node:os';
import { binaryOutputNote, isBinaryStream } from './binary-output.js';
import type { OutputSnapshot } from './output-buffer.js';
import { bashText } from './strings.js';

/**
 * Most characters of one bash result sent to the model (header, notes and both streams).
 *
 * @example
 * renderBashOutput({ ...result, maxChars: MODEL_OUTPUT_MAX_CHARS });
 */
export const MODEL_OUTPUT_MAX_CHARS = 30_000;

/**
 * Exit code reported for a command killed by its timeout, as coreutils `timeout` does.
 *
 * @example
 * if (exitCode === TIMEOUT_EXIT_CODE) console.log('timed out');
 */
export const TIMEOUT_EXIT_CODE = 124;

/**
 * The code to report for a finished command: 124 when it timed out, the shell's code when it
 * exited, 128 + signal number when a signal killed it (what bash itself prints for `$?`).
 *
 * @example
 * reportedExitCode({ code: null, signal: 'SIGKILL', timedOut: false }); // 137
 * reportedExitCode({ code: 3, signal: null, timedOut: false }); // 3
 */
export function reportedExitCode(status: {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
}): number {
  if (status.timedOut) return TIMEOUT_EXIT_CODE;
  if (status.code !== null) return status.code;
  if (status.signal !== null) return 128 + (osConstants.signals[status.signal] ?? 0);
  return 1;
}

/** OSC/DCS/SOS/PM/APC strings: ESC + introducer, body, BEL or ST (or end of line if unterminated). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters.
const STRING_SEQUENCE = /\u001b[\]P^_X][^\u0007\u001b\n]*(?:\u0007|\u001b\\)?/g;
/** CSI sequences (colours, cursor moves), 7-bit and 8-bit introducer. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters.
const CSI_SEQUENCE = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]/g;
/** Any other escape: ESC, intermediates, final byte (charset selection, keypad modes, …). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters.
const OTHER_ESCAPE = /\u001b[ -/]*[0-~]?/g;
/** C0 controls except tab and newline, DEL, and C1 controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters.
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Make terminal output safe and readable as plain text: strip ANSI/OSC escape sequences (which
 * could retitle or recolour the user's terminal, or hide text), drop control characters, and
 * resolve carriage returns the way a terminal shows them (`50%\r100%` → `100%`).
 *
 * @example
 * sanitizeTerminalText('\u001b[31mred\u001b[0m\r\n'); // 'red\n'
 * sanitizeTerminalText('\u001b]0;pwn\u0007ok'); // 'ok'
 */
export function sanitizeTerminalText(text: string): string {
  let out = text
    .replace(STRING_SEQUENCE, '')
    .replace(CSI_SEQUENCE, '')
    .replace(OTHER_ESCAPE, '')
    .replace(/\r\n/g, '\n');
  if (out.includes('\r')) {
    out = out
      .split('\n')
      .map((line) => {
        if (!line.includes('\r')) return line;
        const parts = line.split('\r').filter((part) => part !== '');
        return parts[parts.length - 1] ?? '';
      })
      .join('\n');
  }
  return out.replace(CONTROL_CHARS, '');
}

/** Length of `bytes` without an incomplete UTF-8 sequence at its end. */
function completePrefixLength(bytes: Buffer): number {
  let i = bytes.length - 1;
  let continuation = 0;
  while (i >= 0 && continuation < 3 && ((bytes[i] ?? 0) & 0xc0) === 0x80) {
    i -= 1;
    continuation += 1;
  }
  if (i < 0) return bytes.length;
  const lead = bytes[i] ?? 0;
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - i < needed ? i : bytes.length;
}

/** Number of UTF-8 continuation bytes (at most 3) at the start of `bytes`. */
function leadingContinuationBytes(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length && i < 3 && ((bytes[i] ?? 0) & 0xc0) === 0x80) i += 1;
  return i;
}

/**
 * A stream decoded for display: sanitized text before and after the bytes the buffer dropped.
 *
 * @example
 * const decoded: DecodedStream = decodeStream(buffer.snapshot());
 */
export interface DecodedStream {
  head: string;
  tail: string;
  /** Bytes between head and tail that are not shown (0 when the stream is complete). */
  gapBytes: number;
}

/**
 * Decode a captured stream as UTF-8 (invalid bytes become U+FFFD), cutting head and tail at
 * character boundaries so the gap never produces spurious replacement characters, then sanitize.
 *
 * @example
 * decodeStream({ head: Buffer.from('hi\xff'), tail: Buffer.alloc(0), omittedBytes: 0, totalBytes: 3 });
 * // { head: 'hi\uFFFD', tail: '', gapBytes: 0 }
 */
export function decodeStream(snapshot: OutputSnapshot): DecodedStream {
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  if (snapshot.omittedBytes === 0) {
    const whole =
      snapshot.tail.length > 0 ? Buffer.concat([snapshot.head, snapshot.tail]) : snapshot.head;
    return { head: sanitizeTerminalText(decoder.decode(whole)), tail: '', gapBytes: 0 };
  }
  const headEnd = completePrefixLength(snapshot.head);
  const tailStart = leadingContinuationBytes(snapshot.tail);
  return {
    head: sanitizeTerminalText(decoder.decode(snapshot.head.subarray(0, headEnd))),
    tail: sanitizeTerminalText(decoder.decode(snapshot.tail.subarray(tailStart))),
    gapBytes: snapshot.omittedBytes + (snapshot.head.length - headEnd) + tailStart,
  };
}

/**
 * A stream ready to be fitted: decoded text, or — for a stream that is not text (NULs, many
 * control bytes or much invalid UTF-8) — a one-line note with its size and first bytes in hex, so
 * the model never gets a run of U+FFFD it cannot read.
 */
function shownStream(snapshot: OutputSnapshot): DecodedStream {
  if (isBinaryStream(snapshot)) return { head: binaryOutputNote(snapshot), tail: '', gapBytes: 0 };
  return decodeStream(snapshot);
}

/**
 * A stream as shown to the model.
 *
 * @example
 * const shown: FittedStream = fitStream(decoded, 15_000);
 */
export interface FittedStream {
  text: string;
  truncated: boolean;
  /** Bytes of the stream not shown (approximate: counted on sanitized text). */
  omittedBytes: number;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Keep the first `count` chars without splitting a surrogate pair. */
function keepStart(text: string, count: number): string {
  let end = Math.max(0, Math.min(count, text.length));
  if (end > 0 && end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(0, end);
}

/** Keep the last `count` chars without splitting a surrogate pair. */
function keepEnd(text: string, count: number): string {
  let start = Math.max(0, text.length - Math.max(0, count));
  if (start > 0 && start < text.length && isLowSurrogate(text.charCodeAt(start))) start += 1;
  return text.slice(start);
}

function fullLength(decoded: DecodedStream): number {
  const marker = decoded.gapBytes > 0 ? bashText.omittedMarker(decoded.gapBytes).length : 0;
  return decoded.head.length + decoded.tail.length + marker;
}

/**
 * Fit a decoded stream into `budget` characters as head + omitted-bytes marker + tail.
 *
 * @example
 * fitStream({ head: 'x'.repeat(100), tail: '', gapBytes: 0 }, 60).text;
 * // 'xxxx…\n[... 70 bytes omitted ...]\nxxxx…'
 */
export function fitStream(decoded: DecodedStream, budget: number): FittedStream {
  if (fullLength(decoded) <= budget) {
    const text =
      decoded.gapBytes > 0
        ? decoded.head + bashText.omittedMarker(decoded.gapBytes) + decoded.tail
        : decoded.head;
    return { text, truncated: decoded.gapBytes > 0, omittedBytes: decoded.gapBytes };
  }
  // Reserve the longest marker this stream could need, so the result never exceeds the budget.
  const totalBytes =
    decoded.gapBytes +
    Buffer.byteLength(decoded.head, 'utf8') +
    Buffer.byteLength(decoded.tail, 'utf8');
  const available = Math.max(0, budget - bashText.omittedMarker(totalBytes).length);
  let head: string;
  let tail: string;
  let omittedBytes: number;
  if (decoded.gapBytes === 0) {
    const whole = decoded.head + decoded.tail;
    head = keepStart(whole, Math.ceil(available / 2));
    tail = keepEnd(whole.slice(head.length), available - head.length);
    omittedBytes = Buffer.byteLength(whole.slice(head.length, whole.length - tail.length), 'utf8');
  } else {
    const tailWanted = Math.min(decoded.tail.length, Math.floor(available / 2));
    head = keepStart(decoded.head, available - tailWanted);
    tail = keepEnd(decoded.tail, available - head.length);
    omittedBytes =
      decoded.gapBytes +
      Buffer.byteLength(decoded.head.slice(head.length), 'utf8') +
      Buffer.byteLength(decoded.tail.slice(0, decoded.tail.length - tail.length), 'utf8');
  }
  return {
    text: head + bashText.omittedMarker(omittedBytes) + tail,
    truncated: true,
    omittedBytes,
  };
}

/**
 * Everything {@link renderBashOutput} needs about a finished command.
 *
 * @example
 * const input: RenderInput = { exitCode: 0, timedOut: false, stdout, stderr, notes: [] };
 */
export interface RenderInput {
  exitCode: number;
  timedOut: boolean;
  /** Name of the signal that ended the shell, if any (shown for 128+N codes). */
  signal?: NodeJS.Signals | null;
  stdout: OutputSnapshot;
  stderr: OutputSnapshot;
  /** Lines shown under the header (timeout, cancellation, killed leftovers). */
  notes?: readonly string[];
  /** Default {@link MODEL_OUTPUT_MAX_CHARS}. */
  maxChars?: number;
}

/**
 * The model-facing text of a bash result and the truncation flags.
 *
 * @example
 * const { content, stdoutTruncated } = renderBashOutput(input);
 */
export interface RenderedOutput {
  content: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
}

/** Split `budget` between two streams: a short one keeps everything, the long one the rest. */
function splitBudget(budget: number, outWant: number, errWant: number): [number, number] {
  if (outWant + errWant <= budget) return [outWant, errWant];
  const half = Math.floor(budget / 2);
  if (outWant <= half) return [outWant, budget - outWant];
  if (errWant <= half) return [budget - errWant, errWant];
  return [budget - half, half];
}

/**
 * Render a finished command for the model, at most `maxChars` characters in all:
 *
 * ```
 * exit_code=1 stdout_truncated=false stderr_truncated=true
 * <notes>
 * stdout:
 * …
 * stderr:
 * …[... 12345 bytes omitted ...]…
 * ```
 *
 * `timed_out=true` (and `signal=SIGKILL` for signal deaths) follow `exit_code` when they apply;
 * an empty stream's section is left out; escape sequences are stripped and a stray invalid UTF-8
 * byte shows as U+FFFD, while a stream that is not text at all becomes
 * `[binary output: N bytes, not shown; starts with …]` (each stream on its own).
 *
 * @example
 * renderBashOutput({ exitCode: 0, timedOut: false, stdout: snap, stderr: emptySnap }).content;
 * // 'exit_code=0 stdout_truncated=false stderr_truncated=false\nstdout:\nhello'
 */
export function renderBashOutput(input: RenderInput): RenderedOutput {
  const maxChars = input.maxChars ?? MODEL_OUTPUT_MAX_CHARS;
  const out = shownStream(input.stdout);
  const err = shownStream(input.stderr);
  // Trailing blank lines carry nothing; trimming before budgeting keeps the budget for content.
  if (out.gapBytes === 0) out.head = out.head.trimEnd();
  else out.tail = out.tail.trimEnd();
  if (err.gapBytes === 0) err.head = err.head.trimEnd();
  else err.tail = err.tail.trimEnd();
  const outEmpty = out.head === '' && out.tail === '' && out.gapBytes === 0;
  const errEmpty = err.head === '' && err.tail === '' && err.gapBytes === 0;

  const notes = (input.notes ?? []).join('\n');
  const labels =
    (outEmpty ? 0 : bashText.stdoutLabel.length + 1) +
    (errEmpty ? 0 : bashText.stderrLabel.length + 1) +
    (outEmpty || errEmpty ? 0 : 1);
  // Flags are not known yet ("false" is the longer spelling); reserve for the longest header.
  const headerReserve = header(input, false, false).length + 1 + (notes ? notes.length + 1 : 0);
  const budget = Math.max(0, maxChars - headerReserve - labels);
  const [outBudget, errBudget] = splitBudget(
    budget,
    outEmpty ? 0 : fullLength(out),
    errEmpty ? 0 : fullLength(err),
  );
  const outShown = outEmpty ? undefined : fitStream(out, outBudget);
  const errShown = errEmpty ? undefined : fitStream(err, errBudget);
  const stdoutTruncated = outShown?.truncated ?? false;
  const stderrTruncated = errShown?.truncated ?? false;

  const parts = [header(input, stdoutTruncated, stderrTruncated)];
  if (notes) parts.push(notes);
  if (outShown) parts.push(`${bashText.stdoutLabel}\n${outShown.text}`);
  if (errShown) parts.push(`${bashText.stderrLabel}\n${errShown.text}`);
  if (!outShown && !errShown) parts.push(bashText.noOutput);
  return { content: parts.join('\n'), stdoutTruncated, stderrTruncated };
}

function header(input: RenderInput, stdoutTruncated: boolean, stderrTruncated: boolean): string {
  const fields = [`exit_code=${input.exitCode}`];
  if (input.timedOut) fields.push('timed_out=true');
  else if (input.signal) fields.push(`signal=${input.signal}`);
  fields.push(`stdout_truncated=${stdoutTruncated}`, `stderr_truncated=${stderrTruncated}`);
  return fields.join(' ');
}
