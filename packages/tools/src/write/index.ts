import { createHash } from 'node:crypto';
import { constants as fsConstants, type Stats } from 'node:fs';
import { type FileHandle, lstat, open } from 'node:fs/promises';
import {
  defineTool,
  errorMessage,
  type Tool,
  type ToolContext,
  type ToolMetadata,
  type ToolOutput,
} from '@tiny-claw/core';
import { ConfinedWriteError, writeFileConfined } from '@tiny-claw/workspace/files';
import { z } from 'zod';
import {
  type FileFingerprint,
  fingerprintOf,
  type ReadLedger,
  withFileLock,
} from '../file-state/index.js';
import { type OpenedTarget, openedPlace, workdirRootOf } from '../file-state/opened-path.js';
import { resolveInWorkdir } from '../path-guard.js';
import { READ_LIMITS } from '../read/limits.js';
import { readRefusal } from '../read/readable.js';
import { type FailureReporter, failureReporter } from '../tool-failure.js';
import { type WriteErrorType, writeFailure } from './advice.js';
import { writeText } from './strings.js';

/**
 * Limits and defaults of the `write` tool.
 *
 * @example
 * if (bytes > WRITE_LIMITS.maxContentBytes) console.log('too large for write');
 */
export const WRITE_LIMITS = {
  /** Content (and, for append, the resulting file) larger than this is refused. */
  maxContentBytes: 20 * 1024 * 1024,
  /** Permission bits of a file the tool creates (an existing file keeps its own). */
  newFileMode: 0o644,
} as const;

/**
 * Options of {@link createWriteTool}.
 *
 * @example
 * const options: WriteToolOptions = { protectedPaths: [stateDir], readLedger: ledger };
 */
export interface WriteToolOptions {
  /**
   * The workdir every path is confined to. Default: the workdir of each call (`ctx.workdir`).
   * `workspaceTools` binds it, so a caller's context cannot move the tools elsewhere.
   */
  workdir?: string;
  /** Never written, even when missing (the state dir). `.git` is always refused. */
  protectedPaths?: readonly string[];
  /**
   * The ledger the `read` tool records into. With it (and a `ctx.runId`), an existing file can
   * only be written after it was read in the same run and is unchanged since. Without either
   * there is no such check, as in `read` and `edit` (library use outside a run).
   */
  readLedger?: ReadLedger;
}

const writeSchema = z.strictObject({
  path: z.string().describe(writeText.pathDescription),
  content: z.string().describe(writeText.contentDescription),
  mode: z
    .enum(['overwrite', 'append'], { error: writeText.modeInvalid })
    .default('overwrite')
    .describe(writeText.modeDescription),
});

/**
 * Arguments of the `write` tool after parsing (defaults applied).
 *
 * @example
 * const args: WriteArgs = { path: 'src/new.ts', content: 'export {};\n', mode: 'overwrite' };
 */
export type WriteArgs = z.output<typeof writeSchema>;

const MAX_MB = WRITE_LIMITS.maxContentBytes / 1024 / 1024;

/** Bytes kept from the start of an existing file: the read tool's binary sniff and a BOM. */
const HEAD_BYTES = READ_LIMITS.sniffBytes + 4;

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** Lines as `wc -l` plus a final unterminated line: "a\nb\n" and "a\nb" are 2, "" is 0. */
function countLines(text: string): number {
  if (text === '') return 0;
  let count = 0;
  let pos = text.indexOf('\n');
  while (pos !== -1) {
    count += 1;
    pos = text.indexOf('\n', pos + 1);
  }
  return text.endsWith('\n') ? count : count + 1;
}

/** The file being replaced: its stat, fingerprint and (for append) its bytes. */
interface ExistingFile {
  stats: Stats;
  /** Only computed when a ledger needs it. */
  fingerprint?: FileFingerprint;
  /** The first bytes, kept with the fingerprint: enough to tell whether `read` could show it. */
  head?: Buffer;
  bytes?: Buffer;
}

/** What {@link inspectTarget} must read of an existing file. */
interface InspectNeeds {
  /** Hash the content (for the ledger check). */
  hash: boolean;
  /** Keep the content (append). */
  keepBytes: boolean;
  /** Size of the content to be added (append limit). */
  contentBytes: number;
}

/**
 * Inspect the current target without following a symlink or blocking on a FIFO: undefined when
 * it does not exist, an error output when it cannot be written, else its state.
 */
async function inspectTarget(
  target: OpenedTarget,
  display: string,
  needs: InspectNeeds,
  fail: FailureReporter<WriteErrorType>,
): Promise<ExistingFile | ToolOutput | undefined> {
  const { keepBytes, contentBytes } = needs;
  const abs = target.path;
  const maxBytes = WRITE_LIMITS.maxContentBytes;
  let linkStats: Stats;
  try {
    linkStats = await lstat(abs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') {
      return fail(writeText.errors.parentNotDirectory(display), 'invalid_path');
    }
    return fail(writeText.errors.failed(display, errorMessage(error)), 'execution_error');
  }
  // The guard returned a canonical path, so a symlink here appeared after it looked.
  if (linkStats.isSymbolicLink()) {
    return fail(writeText.errors.becameSymlink(display), 'path_changed');
  }
  if (linkStats.isDirectory()) return fail(writeText.errors.isDirectory(display), 'is_directory');
  if (!linkStats.isFile()) {
    return fail(writeText.errors.notRegular(display, kindOf(linkStats)), 'not_regular_file');
  }
  if (keepBytes && linkStats.size + contentBytes > maxBytes) {
    return fail(
      writeText.errors.appendTooLarge(display, linkStats.size + contentBytes, MAX_MB),
      'file_too_large',
    );
  }
  // O_NOFOLLOW + O_NONBLOCK: a swap to a symlink or FIFO since lstat fails or returns at once.
  const flags =
    fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0);
  let handle: FileHandle | undefined;
  try {
    handle = await open(abs, flags);
    const stats = await handle.stat();
    if (!stats.isFile()) {
      return fail(writeText.errors.notRegular(display, kindOf(stats)), 'not_regular_file');
    }
    if (!needs.hash && !keepBytes) return { stats };
    // Hash while reading in chunks: an overwrite never needs the old bytes in memory.
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    const chunk = Buffer.allocUnsafe(256 * 1024);
    let head: Buffer | undefined;
    let position = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      const piece = chunk.subarray(0, bytesRead);
      head ??= Buffer.from(piece.subarray(0, HEAD_BYTES));
      hash.update(piece);
      if (keepBytes) {
        chunks.push(Buffer.from(piece));
        if (position + bytesRead + contentBytes > maxBytes) {
          return fail(
            writeText.errors.appendTooLarge(display, position + bytesRead + contentBytes, MAX_MB),
            'file_too_large',
          );
        }
      }
      position += bytesRead;
    }
    // O_NOFOLLOW guards only the last component: kept bytes are written back into the workdir
    // (append), so a descriptor that leads outside must not be used.
    if ((await openedPlace(handle, target)) === 'outside') {
      return fail(writeText.errors.ledOutside(display), 'path_changed');
    }
    const existing: ExistingFile = { stats };
    if (needs.hash) {
      existing.fingerprint = { mtimeMs: stats.mtimeMs, size: position, sha256: hash.digest('hex') };
      existing.head = head ?? Buffer.alloc(0);
    }
    if (keepBytes) existing.bytes = Buffer.concat(chunks, position);
    return existing;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return fail(writeText.errors.becameSymlink(display), 'path_changed');
    return fail(writeText.errors.failed(display, errorMessage(error)), 'execution_error');
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function isOutput(value: unknown): value is ToolOutput {
  return typeof value === 'object' && value !== null && 'isError' in value;
}

/** The part of a write that runs under the file's lock: check, write, record. */
async function writeLocked(
  args: WriteArgs,
  abs: string,
  relative: string,
  ctx: ToolContext,
  options: WriteToolOptions,
  fail: FailureReporter<WriteErrorType>,
): Promise<ToolOutput> {
  const display = args.path;
  const runId = ctx.runId;
  // Like read and edit: the ledger is per run, so a call outside a run is not checked.
  const ledger = runId === undefined ? undefined : options.readLedger;
  const content = Buffer.from(args.content, 'utf8');
  const append = args.mode === 'append';

  const existing = await inspectTarget(
    { root: workdirRootOf(abs, relative), path: abs },
    display,
    {
      hash: ledger !== undefined,
      keepBytes: append,
      contentBytes: content.length,
    },
    fail,
  );
  if (isOutput(existing)) return existing;
  if (existing?.fingerprint && ledger && runId !== undefined) {
    const verdict = ledger.check(runId, abs, existing.fingerprint);
    // "Read it first" would loop when read refuses the file whatever it is called with.
    const unreadable =
      verdict === 'ok'
        ? undefined
        : readRefusal(existing.head ?? Buffer.alloc(0), existing.fingerprint.size);
    if (unreadable === 'binary') {
      return fail(writeText.errors.binaryUnread(display), 'binary_file');
    }
    if (unreadable === 'too_large') {
      return fail(
        writeText.errors.tooLargeToRead(display, existing.fingerprint.size, MAX_MB),
        'file_too_large_to_read',
      );
    }
    if (verdict === 'not_read') return fail(writeText.errors.notRead(display), 'file_not_read');
    if (verdict === 'modified') {
      return fail(writeText.errors.modified(display), 'file_modified_since_read');
    }
  }
  if (ctx.signal.aborted) return fail(writeText.errors.cancelled, 'cancelled');

  const data = append && existing?.bytes ? Buffer.concat([existing.bytes, content]) : content;
  // Only permission bits: setuid/setgid must not survive a content change.
  const mode = existing ? existing.stats.mode & 0o777 : WRITE_LIMITS.newFileMode;
  let written: Stats;
  try {
    // Confined to the workdir by descriptors, not paths: a directory swapped for a symlink since
    // the guard looked makes this fail instead of writing outside. Missing parents are
    // created the same way, with the default mode (0777 & ~umask) like `mkdir -p`: these are the
    // user's project directories.
    written = await writeFileConfined(workdirRootOf(abs, relative), relative, data, {
      mode,
      createParents: !existing,
      owner: existing ? ownerToKeep(existing.stats) : undefined,
    });
  } catch (error) {
    if (error instanceof ConfinedWriteError) {
      if (error.reason === 'changed') {
        return fail(writeText.errors.parentMoved(display), 'path_changed');
      }
      if (error.reason === 'not_directory') {
        return fail(writeText.errors.parentNotDirectory(display), 'invalid_path');
      }
      return fail(writeText.errors.failed(display, error.detail), 'execution_error');
    }
    return fail(writeText.errors.failed(display, errorMessage(error)), 'execution_error');
  }

  const metadata: ToolMetadata = {
    path: relative,
    mode: args.mode,
    bytes: content.length,
    lines: countLines(args.content),
    file_bytes: data.length,
    created: !existing,
  };
  if (ledger && runId !== undefined) {
    try {
      // What the model wrote is what it has seen: the next write needs no fresh read.
      // The stats are those of the written file itself, not of whatever the path leads to now.
      ledger.recordRead(runId, abs, fingerprintOf(data, written));
    } catch {
      // Nothing to record: the next write will simply need a new read.
    }
  }

  const lines = [
    `path=${display}`,
    `mode=${args.mode}`,
    `bytes=${content.length}`,
    `lines=${metadata.lines}`,
  ];
  if (append) lines.push(`file_bytes=${data.length}`);
  if (!existing) lines.push('created=true');
  if (existing && existing.stats.nlink > 1) {
    lines.push(writeText.hardLinkNote(existing.stats.nlink));
  }
  return { content: lines.join('\n'), isError: false, metadata };
}

/**
 * The old file's owner when it differs from this process's (possible to keep when running as
 * root; best effort), else undefined.
 */
function ownerToKeep(before: Stats): { uid: number; gid: number } | undefined {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  if (uid === undefined || (before.uid === uid && before.gid === gid)) return undefined;
  return { uid: before.uid, gid: before.gid };
}

async function runWrite(
  args: WriteArgs,
  ctx: ToolContext,
  options: WriteToolOptions,
): Promise<ToolOutput> {
  const fail = failureReporter((type: WriteErrorType) =>
    writeFailure(type, { path: args.path, visibleTools: ctx.visibleTools }),
  );
  if (ctx.signal.aborted) return fail(writeText.errors.cancelled, 'cancelled');
  const bytes = Buffer.byteLength(args.content, 'utf8');
  if (bytes > WRITE_LIMITS.maxContentBytes) {
    return fail(writeText.errors.contentTooLarge(bytes, MAX_MB), 'content_too_large', { bytes });
  }
  if (/[\\/]$/.test(args.path)) {
    return fail(writeText.errors.trailingSeparator(args.path), 'invalid_path');
  }
  const guardOptions = options.protectedPaths
    ? { access: 'write' as const, protectedPaths: options.protectedPaths }
    : { access: 'write' as const };
  const resolved = await resolveInWorkdir(options.workdir ?? ctx.workdir, args.path, guardOptions);
  if (!resolved.ok) return fail(`write: ${resolved.error}`, resolved.errorType);
  const target = resolved.path;
  // One writer per file at a time across every tool of the process.
  return withFileLock(target, () =>
    writeLocked(args, target, resolved.relative, ctx, options, fail),
  );
}

/**
 * Create the `write` tool (not parallel-safe): atomic create/overwrite/append of a file inside
 * the workdir (`options.workdir`, else `ctx.workdir`), keeping an existing file's permission
 * bits, refusing `.git`, protected paths, symlink escapes and non-regular files, and — with a
 * `readLedger` — refusing to change a file that was not read in this run or changed since.
 * Concurrent writes of one file are serialised; a failed write leaves the old content and no
 * temp file. Refusals carry a typed `failure` whose advice names only visible tools.
 *
 * @example
 * const write = createWriteTool({ protectedPaths: [stateDir], readLedger: ledger });
 * const out = await write.run(write.parse({ path: 'notes/todo.md', content: '- [ ] ship\n' }), ctx);
 * // out.content === 'path=notes/todo.md\nmode=overwrite\nbytes=11\nlines=1\ncreated=true'
 */
export function createWriteTool(options: WriteToolOptions = {}): Tool<WriteArgs> {
  const tool = defineTool({
    name: 'write',
    description: writeText.description(MAX_MB),
    parameters: writeSchema,
    parallelSafe: false,
    run: (args, ctx) => runWrite(args, ctx, options),
  });
  // The ledger outlives a pause for approval, so an approved change is not refused for lack of a read.
  return options.readLedger ? { ...tool, carry: options.readLedger.carry } : tool;
}
