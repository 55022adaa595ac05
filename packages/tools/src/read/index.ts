import { constants as fsConstants, type Stats } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import {
  defineTool,
  FOOTER_CHARS_KEY,
  type Tool,
  type ToolContext,
  type ToolOutput,
} from '@tiny-claw/core';
import { z } from 'zod';
import { describeFileKind } from '../file-kind.js';
import { fingerprintOf, type ReadLedger } from '../file-state/index.js';
import { openedPlace, workdirRootOf } from '../file-state/opened-path.js';
import { resolveInWorkdir } from '../path-guard.js';
import { failureReporter, formatSize } from '../tool-failure.js';
import { type ReadErrorType, readFailure } from './advice.js';
import { READ_LIMITS } from './limits.js';
import { classifyBytes } from './readable.js';

export { READ_LIMITS } from './limits.js';

/** Room kept for the footer and notes so the whole output stays under maxOutputBytes. */
const FOOTER_RESERVE_BYTES = 1024;

/**
 * Options of {@link createReadTool}.
 *
 * @example
 * const options: ReadToolOptions = { protectedPaths: ['/home/me/.tiny-claw'] };
 */
export interface ReadToolOptions {
  /**
   * The workdir every path is confined to. Default: the workdir of each call (`ctx.workdir`).
   * `workspaceTools` binds it, so a caller's context cannot move the tools elsewhere.
   */
  workdir?: string;
  /** Passed to the path guard (reads are allowed there; kept for symmetry with write tools). */
  protectedPaths?: readonly string[];
  /** Where successful reads are recorded, so `edit` and `write` can insist on a read first. */
  readLedger?: ReadLedger;
}

const readSchema = z.strictObject({
  path: z
    .string()
    .describe('File to read: relative to the workdir (preferred) or absolute inside it.'),
  offset: z
    .number()
    .int()
    .min(1)
    .default(1)
    .describe('1-based line number to start from (default 1).'),
  limit: z
    .number()
    .int()
    .min(1)
    .default(READ_LIMITS.defaultLimit)
    .describe(`Maximum number of lines to return (default ${READ_LIMITS.defaultLimit}).`),
});

/**
 * Arguments of the `read` tool after parsing (defaults applied).
 *
 * @example
 * const args: ReadArgs = { path: 'src/index.ts', offset: 1, limit: 2000 };
 */
export type ReadArgs = z.output<typeof readSchema>;

const DESCRIPTION = [
  'Read a UTF-8 text file inside the workdir. Lines are numbered "N: text" (N is the real line',
  'number; do not copy the "N: " prefix into edits). Use offset/limit to page through long files;',
  `at most ${READ_LIMITS.maxOutputBytes / 1024} KiB is returned per call and a footer says how to continue.`,
  `Lines over ${READ_LIMITS.maxLineChars} chars are cut. Binary files, directories and files over`,
  `${READ_LIMITS.maxFileBytes / 1024 / 1024} MB are refused.`,
].join(' ');

/** Read the whole file through an open handle, stopping once it exceeds `max` bytes. */
async function readCapped(
  handle: FileHandle,
  sizeHint: number,
  max: number,
  signal: AbortSignal,
): Promise<Buffer | 'too_large' | 'aborted'> {
  const chunks: Buffer[] = [];
  let total = 0;
  // First read sized to the whole file (+1 to see growth); later reads only catch growth.
  let chunkSize = Math.min(Math.max(sizeHint + 1, 64 * 1024), max + 1);
  for (;;) {
    if (signal.aborted) return 'aborted';
    const chunk = Buffer.allocUnsafe(chunkSize);
    chunkSize = 64 * 1024;
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > max) return 'too_large';
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
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

interface RenderResult {
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

/** Select and number lines [offset, offset + limit) under the byte budget, then add a footer. */
function render(text: string, offset: number, limit: number): RenderResult | { beyond: number } {
  const budget = READ_LIMITS.maxOutputBytes - FOOTER_RESERVE_BYTES;
  const out: string[] = [];
  let bytes = 0;
  let lineNo = 0;
  let pos = 0;
  let endLine = offset - 1;
  let cappedByBytes = false;
  let cutLines = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl === -1 ? text.length : nl;
    lineNo += 1;
    const next = nl === -1 ? text.length : nl + 1;
    if (lineNo >= offset) {
      if (lineNo >= offset + limit) {
        // Past the requested window: only the total is still needed.
        const total = countLines(text, pos, lineNo - 1);
        return finish(out, offset, endLine, total, false, cutLines);
      }
      let line = text.slice(pos, lineEnd);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      const shown = cutLine(line);
      if (shown !== line) cutLines += 1;
      const entry = `${lineNo}: ${shown}`;
      const entryBytes = Buffer.byteLength(entry, 'utf8') + 1;
      if (out.length > 0 && bytes + entryBytes > budget) {
        cappedByBytes = true;
        const total = countLines(text, pos, lineNo - 1);
        return finish(out, offset, endLine, total, cappedByBytes, cutLines);
      }
      out.push(entry);
      bytes += entryBytes;
      endLine = lineNo;
    }
    pos = next;
  }
  const total = lineNo;
  if (offset > total) return { beyond: total };
  return finish(out, offset, endLine, total, false, cutLines);
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

async function runRead(
  args: ReadArgs,
  ctx: ToolContext,
  options: ReadToolOptions,
): Promise<ToolOutput> {
  const { signal, runId } = ctx;
  const workdir = options.workdir ?? ctx.workdir;
  const fail = failureReporter((type: ReadErrorType) =>
    readFailure(type, { path: args.path, visibleTools: ctx.visibleTools }),
  );
  const guardOptions = options.protectedPaths
    ? { access: 'read' as const, protectedPaths: options.protectedPaths }
    : { access: 'read' as const };
  const resolved = await resolveInWorkdir(workdir, args.path, guardOptions);
  if (!resolved.ok) return fail(`read: ${resolved.error}`, resolved.errorType);
  const display = args.path;

  // stat before open: FIFOs, sockets and devices are refused without ever being opened.
  let stats: Stats;
  try {
    stats = await stat(resolved.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return fail(
        `read path does not exist: ${display}. Check the spelling and the directory it is in.`,
        'not_found',
      );
    }
    return fail(`read: cannot stat ${display}: ${code ?? String(error)}`, 'execution_error');
  }
  if (stats.isDirectory()) {
    return fail(
      `read path is a directory: ${display}. read only opens files; pass the path of a file inside it.`,
      'is_directory',
    );
  }
  if (!stats.isFile()) {
    return fail(
      `read refused: ${display} is not a regular file (it is ${describeFileKind(stats)}); it was not opened.`,
      'not_regular_file',
    );
  }
  if (stats.size > READ_LIMITS.maxFileBytes) {
    return fail(
      `read refused: ${display} is ${formatSize(stats.size)}, over the ${READ_LIMITS.maxFileBytes / 1024 / 1024} MB limit, so it is not read.`,
      'file_too_large',
      { size: stats.size },
    );
  }
  if (signal.aborted) return fail('read cancelled', 'cancelled');

  // O_NONBLOCK: if the file was swapped for a FIFO after stat, open still returns at once and
  // the fstat below refuses it. O_NOFOLLOW: the guard returned a canonical path, so a symlink
  // here means the file changed under us.
  const flags =
    fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (fsConstants.O_NOFOLLOW ?? 0);
  let handle: FileHandle;
  try {
    handle = await open(resolved.path, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return fail(`read path does not exist: ${display}`, 'not_found');
    if (code === 'ELOOP') {
      return fail(
        `read refused: ${display} changed into a symlink while being read`,
        'path_changed',
      );
    }
    return fail(`read: cannot open ${display}: ${code ?? String(error)}`, 'execution_error');
  }
  let data: Buffer | 'too_large' | 'aborted';
  let opened: { mtimeMs: number; size: number };
  try {
    const fstats = await handle.stat();
    opened = { mtimeMs: fstats.mtimeMs, size: fstats.size };
    if (!fstats.isFile()) {
      return fail(
        `read refused: ${display} is not a regular file (it is ${describeFileKind(fstats)})`,
        'not_regular_file',
      );
    }
    data = await readCapped(handle, fstats.size, READ_LIMITS.maxFileBytes, signal);
    // The guard looked at the path before the open; a directory on the way may have been
    // swapped for a symlink since. What the descriptor really is decides whether data is used.
    const root = workdirRootOf(resolved.path, resolved.relative);
    if ((await openedPlace(handle, { root, path: resolved.path })) === 'outside') {
      return fail(
        `read refused: ${display} led outside the workdir when it was opened (a directory on the way was replaced by a symlink meanwhile); nothing of it is shown.`,
        'path_changed',
      );
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(`read: cannot read ${display}: ${code ?? String(error)}`, 'execution_error');
  } finally {
    await handle.close().catch(() => undefined);
  }
  if (data === 'aborted') return fail('read cancelled', 'cancelled');
  if (data === 'too_large') {
    return fail(
      `read refused: ${display} grew over the ${READ_LIMITS.maxFileBytes / 1024 / 1024} MB limit while being read.`,
      'file_too_large',
    );
  }

  const notes: string[] = [];
  let text: string;
  const sniffed = classifyBytes(data);
  if (sniffed.kind === 'utf16') {
    // A UTF-16 text file is full of NUL bytes, so the BOM is checked before the binary sniff.
    const { encoding } = sniffed;
    text = new TextDecoder(encoding.toLowerCase(), { fatal: false, ignoreBOM: false }).decode(data);
    notes.push(
      `[note: decoded from ${encoding}; edits to this file are not supported, convert it to UTF-8 first]`,
    );
  } else if (sniffed.kind === 'binary' && sniffed.encoding) {
    const { encoding } = sniffed;
    return fail(
      `read refused: ${display} starts with a ${encoding} byte-order mark, and read decodes only UTF-8 and UTF-16. Convert a copy to UTF-8 first (e.g. iconv -f ${encoding} -t UTF-8).`,
      'binary_file',
      { encoding },
    );
  } else if (sniffed.kind === 'binary') {
    return fail(
      `read refused: ${display} is a binary file (${formatSize(opened.size)}), not shown.`,
      'binary_file',
      { size: opened.size },
    );
  } else {
    const body = data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf ? data.subarray(3) : data;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
    } catch {
      text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(body);
      notes.push(
        '[note: the file is not valid UTF-8; undecodable bytes are shown as U+FFFD (�), so do not copy those lines into edits]',
      );
    }
  }

  // Later edits and overwrites of this file are checked against what the model saw here.
  if (options.readLedger && runId) {
    options.readLedger.recordRead(runId, resolved.path, fingerprintOf(data, opened));
  }

  if (text.length === 0) {
    return {
      content: `(empty file: ${display} has 0 lines)`,
      isError: false,
      metadata: { path: resolved.relative, totalLines: 0 },
    };
  }

  const rendered = render(text, args.offset, args.limit);
  if ('beyond' in rendered) {
    return {
      content: `no content: offset ${args.offset} is beyond the end of ${display}, which has ${rendered.beyond} line${rendered.beyond === 1 ? '' : 's'}.`,
      isError: false,
      metadata: { path: resolved.relative, totalLines: rendered.beyond },
    };
  }
  const content =
    notes.length > 0 ? `${rendered.content}\n\n${notes.join('\n')}` : rendered.content;
  // The paging note and any decoding note close the result: a compactor that cuts the result
  // drops them (they would point at lines it no longer shows).
  const footerChars = rendered.footerChars + (content.length - rendered.content.length);
  const metadata: Record<string, unknown> = {
    path: resolved.relative,
    ...(footerChars > 0 ? { [FOOTER_CHARS_KEY]: footerChars } : {}),
    startLine: rendered.startLine,
    endLine: rendered.endLine,
    totalLines: rendered.totalLines,
    truncated: rendered.truncated,
  };
  if (rendered.nextOffset !== undefined) metadata.nextOffset = rendered.nextOffset;
  if (rendered.cutLines > 0) metadata.cutLines = rendered.cutLines;
  if (notes.length > 0) metadata.invalidUtf8 = true;
  return { content, isError: false, metadata };
}

/**
 * Create the `read` tool (parallel-safe). The workdir is `options.workdir`, else `ctx.workdir`;
 * every path goes through {@link resolveInWorkdir}, and after opening, the descriptor's real path
 * is checked to be inside the workdir too, so a directory swapped for a symlink between the
 * guard and the open is refused (`path_changed`) and nothing of the outside file is shown.
 * Refusals carry a typed `failure` whose advice names only the tools the model can call.
 *
 * @example
 * const read = createReadTool({ protectedPaths: [stateDir] });
 * const out = await read.run(read.parse({ path: 'src/index.ts', offset: 10, limit: 20 }), ctx);
 * // out.content === '10: …\n11: …'
 */
export function createReadTool(options: ReadToolOptions = {}): Tool<ReadArgs> {
  const tool = defineTool({
    name: 'read',
    description: DESCRIPTION,
    parameters: readSchema,
    parallelSafe: true,
    readOnly: true,
    run: (args, ctx) => runRead(args, ctx, options),
  });
  // The ledger outlives a pause for approval, so an approved change is not refused for lack of a read.
  return options.readLedger ? { ...tool, carry: options.readLedger.carry } : tool;
}
