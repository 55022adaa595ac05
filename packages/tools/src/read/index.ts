import { isUtf8 } from 'node:buffer';
import { constants as fsConstants, type Stats } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { defineTool, type Tool, type ToolContext, type ToolOutput } from '@tiny-claw/core';
import { z } from 'zod';
import { describeFileKind } from '../file-kind.js';
import { fingerprintOf, type ReadLedger } from '../file-state/index.js';
import { openedPlace, workdirRootOf } from '../file-state/opened-path.js';
import { resolveInWorkdir } from '../path-guard.js';
import { failureReporter, formatSize } from '../tool-failure.js';
import { type ReadErrorType, readFailure } from './advice.js';
import { READ_LIMITS } from './limits.js';
import { classifyBytes } from './readable.js';
import { type BeyondEnd, type RenderResult, renderText, renderUtf8 } from './render.js';

export { READ_LIMITS } from './limits.js';

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
    // The whole file as fstat sized it, and the one-byte probe past it came back empty: that is
    // the end, and one more read (a round trip to the thread pool) would only confirm it.
    if (chunks.length === 1 && total === sizeHint && bytesRead < chunk.length) break;
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
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
  /** The lines to show: decoded all at once for UTF-16, only the shown window for UTF-8. */
  let select: (offset: number, limit: number) => RenderResult | BeyondEnd;
  let empty: boolean;
  const sniffed = classifyBytes(data);
  if (sniffed.kind === 'utf16') {
    // A UTF-16 text file is full of NUL bytes, so the BOM is checked before the binary sniff.
    const { encoding } = sniffed;
    const text = new TextDecoder(encoding.toLowerCase(), { fatal: false, ignoreBOM: false }).decode(
      data,
    );
    empty = text.length === 0;
    select = (offset, limit) => renderText(text, offset, limit);
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
    // Validating is one fast pass over the bytes; only the window that is shown gets decoded.
    const valid = isUtf8(body);
    if (!valid) {
      notes.push(
        '[note: the file is not valid UTF-8; undecodable bytes are shown as U+FFFD (�), so do not copy those lines into edits]',
      );
    }
    const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
    empty = body.length === 0;
    select = (offset, limit) =>
      renderUtf8(body, offset, limit, (bytes) =>
        valid
          ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
          : decoder.decode(bytes),
      );
  }

  // Later edits and overwrites of this file are checked against what the model saw here. The
  // hash stays on the main thread: WebCrypto's digest would run on the thread pool, but it copies
  // its input first (about 1 ms per MB into fresh pages), which cost more than hashing here.
  if (options.readLedger && runId) {
    options.readLedger.recordRead(runId, resolved.path, fingerprintOf(data, opened));
  }
  const rendered = empty ? undefined : select(args.offset, args.limit);

  if (rendered === undefined) {
    return {
      content: `(empty file: ${display} has 0 lines)`,
      isError: false,
      metadata: { path: resolved.relative, totalLines: 0 },
    };
  }
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
    startLine: rendered.startLine,
    endLine: rendered.endLine,
    totalLines: rendered.totalLines,
    truncated: rendered.truncated,
  };
  if (rendered.nextOffset !== undefined) metadata.nextOffset = rendered.nextOffset;
  if (rendered.cutLines > 0) metadata.cutLines = rendered.cutLines;
  if (notes.length > 0) metadata.invalidUtf8 = true;
  return { content, isError: false, ...(footerChars > 0 ? { footerChars } : {}), metadata };
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
