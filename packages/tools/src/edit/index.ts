import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { defineTool, type Tool, type ToolContext, type ToolOutput } from '@tiny-claw/core';
import { ConfinedWriteError, writeFileConfined } from '@tiny-claw/workspace/files';
import { z } from 'zod';
import { describeFileKind, unicodeBomEncoding } from '../file-kind.js';
import { withFileLock } from '../file-state/file-lock.js';
import { fingerprintOf } from '../file-state/fingerprint.js';
import { workdirRootOf } from '../file-state/opened-path.js';
import type { ReadLedger } from '../file-state/read-ledger.js';
import { resolveInWorkdir } from '../path-guard.js';
import { readRefusal } from '../read/readable.js';
import { type FailureReporter, failureReporter, formatSize } from '../tool-failure.js';
import { type EditErrorType, editFailure } from './advice.js';
import { applyEdit } from './apply-edit.js';
import { describeNotFound } from './diagnostics.js';
import { loadFileBytes } from './load-file.js';
import { findMatch, MATCHER_LIMITS } from './matcher.js';
import { numberedSnippet } from './snippet.js';
import { editNotes, editText } from './strings.js';
import { detectTextFormat, splitBom } from './text-format.js';

/**
 * Limits of the `edit` tool.
 *
 * @example
 * if (stats.size > EDIT_LIMITS.maxFileBytes) console.log('too large for edit');
 */
export const EDIT_LIMITS = {
  /** Files larger than this are refused without being read. */
  maxFileBytes: 20 * 1024 * 1024,
  /** Hard time budget of the matcher pipeline. */
  matchBudgetMs: MATCHER_LIMITS.budgetMs,
  /** Match lines listed in messages and metadata. */
  maxListedLines: 20,
} as const;

/**
 * Options of {@link createEditTool}.
 *
 * @example
 * const options: EditToolOptions = { protectedPaths: [stateDir], readLedger: ledger };
 */
export interface EditToolOptions {
  /**
   * The workdir every path is confined to. Default: the workdir of each call (`ctx.workdir`).
   * `workspaceTools` binds it, so a caller's context cannot move the tools elsewhere.
   */
  workdir?: string;
  /** Paths (absolute or workdir-relative) that must never be written, e.g. the state dir. */
  protectedPaths?: readonly string[];
  /**
   * When given (and the call has a `ctx.runId`), an edit requires that the run read the file
   * and that it did not change since; a successful edit records the new state.
   */
  readLedger?: ReadLedger;
}

const editSchema = z.strictObject({
  path: z.string().describe(editText.pathArg),
  old_text: z.string().describe(editText.oldTextArg),
  new_text: z.string().describe(editText.newTextArg),
  replace_all: z.boolean().default(false).describe(editText.replaceAllArg),
});

/**
 * Arguments of the `edit` tool after parsing (defaults applied).
 *
 * @example
 * const args: EditArgs = { path: 'src/a.ts', old_text: 'a', new_text: 'b', replace_all: false };
 */
export type EditArgs = z.output<typeof editSchema>;

/** Strict UTF-8 without NUL bytes (a NUL means binary, whatever the decoder says). */
function decodeUtf8(bytes: Buffer): string | undefined {
  if (bytes.indexOf(0) !== -1) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

const MAX_MODE_BITS = 0o1777; // keep permissions and sticky; drop setuid/setgid like a write(2) does

async function editLocked(
  args: EditArgs,
  ctx: ToolContext,
  abs: string,
  relative: string,
  options: EditToolOptions,
  fail: FailureReporter<EditErrorType>,
): Promise<ToolOutput> {
  const display = args.path;
  const limitMb = EDIT_LIMITS.maxFileBytes / 1024 / 1024;
  const workdir = workdirRootOf(abs, relative);
  const loaded = await loadFileBytes({ root: workdir, path: abs }, EDIT_LIMITS.maxFileBytes);
  if (!loaded.ok) {
    switch (loaded.problem) {
      case 'not_found':
        return fail(editText.notFoundFile(display), 'not_found');
      case 'symlink':
        return fail(editText.symlinkSwapped(display), 'path_changed');
      case 'outside':
        return fail(editText.ledOutside(display), 'path_changed');
      case 'not_regular':
        return fail(
          editText.notRegular(
            display,
            loaded.stats ? describeFileKind(loaded.stats) : 'not a regular file',
          ),
          'not_regular_file',
        );
      case 'too_large':
        return loaded.stats
          ? fail(
              editText.tooLarge(display, formatSize(loaded.stats.size), limitMb),
              'file_too_large',
            )
          : fail(editText.grewTooLarge(display, limitMb), 'file_too_large');
      default:
        return fail(editText.readFailed(display, loaded.code), 'execution_error');
    }
  }
  const { bytes, stats } = loaded;
  const before = fingerprintOf(bytes, stats);

  const ledger = options.readLedger;
  if (ledger && ctx.runId !== undefined) {
    const verdict = ledger.check(ctx.runId, abs, before);
    // "Read it first" would loop when read refuses the file whatever it is called with.
    if (verdict !== 'ok' && readRefusal(bytes, bytes.length) === 'binary') {
      return fail(editText.binaryUnread(display), 'binary_file');
    }
    if (verdict === 'not_read') return fail(editText.notRead(display), 'file_not_read');
    if (verdict === 'modified') return fail(editText.modifiedSinceRead(display), 'file_modified');
  }

  const encoding = unicodeBomEncoding(bytes);
  if (encoding) return fail(editText.otherEncoding(display, encoding), 'not_utf8', { encoding });
  const decoded = decodeUtf8(bytes);
  if (decoded === undefined) return fail(editText.notUtf8(display), 'not_utf8');
  const format = detectTextFormat(decoded);
  const { body } = splitBom(decoded);

  const outcome = findMatch(body, args.old_text, { budgetMs: EDIT_LIMITS.matchBudgetMs });
  if (!outcome.found) {
    return fail(
      describeNotFound(display, body, args.old_text, outcome.reason),
      'edit_old_text_not_found',
      { reason: outcome.reason, elapsed_ms: Math.round(outcome.elapsedMs) },
    );
  }
  const lines = outcome.matches.map((match) => match.line);
  const listed = lines.slice(0, EDIT_LIMITS.maxListedLines);
  if (outcome.matches.length > 1 && !args.replace_all) {
    return fail(
      editText.multipleMatches(display, lines.length, listed, outcome.strategy),
      'edit_multiple_matches',
      { match_count: lines.length, match_lines: listed, strategy: outcome.strategy },
    );
  }

  const applied = applyEdit({
    body,
    matches: outcome.matches,
    newText: args.new_text,
    format,
    stripLinePrefixes: outcome.lineNumberPrefixStripped,
  });
  if (applied.text === body) return fail(editText.noEffect(display), 'no_change');
  if (ctx.signal.aborted) return fail(editText.cancelled, 'cancelled');

  const output = Buffer.from(format.bom ? `\uFEFF${applied.text}` : applied.text, 'utf8');
  // Another process may have written since we read; writing now would silently drop its change.
  // Checked in the directory the write goes through (not by path), right before the rename.
  let refusal: ToolOutput | undefined;
  const recheck = (now: Stats | undefined): void => {
    if (!now) refusal = fail(editText.readFailed(display, 'ENOENT'), 'execution_error');
    else if (now.isSymbolicLink()) refusal = fail(editText.symlinkSwapped(display), 'path_changed');
    else if (now.mtimeMs !== stats.mtimeMs || now.size !== stats.size) {
      refusal = fail(editText.changedDuringEdit(display), 'file_modified');
    }
    if (refusal) throw new Error(refusal.content);
  };
  let written: Stats;
  try {
    // Confined to the workdir by descriptors: a directory swapped for a symlink since the guard
    // looked makes this fail instead of writing outside.
    written = await writeFileConfined(workdir, relative, output, {
      mode: stats.mode & MAX_MODE_BITS,
      beforeReplace: recheck,
    });
  } catch (error) {
    if (refusal) return refusal;
    if (error instanceof ConfinedWriteError) {
      const type = error.reason === 'io' ? 'execution_error' : 'path_changed';
      return fail(editText.writeFailed(display, error.detail), type);
    }
    return fail(editText.writeFailed(display, (error as Error).message), 'execution_error');
  }
  if (ledger && ctx.runId !== undefined) {
    try {
      // The stats are those of the written file itself, not of whatever the path leads to now.
      ledger.recordRead(ctx.runId, abs, fingerprintOf(output, written));
    } catch {
      // The edit is on disk; a missing record only means the next edit asks for a re-read.
    }
  }

  const notes: string[] = [];
  if (outcome.lineNumberPrefixStripped) notes.push(editNotes.prefixStripped);
  else if (outcome.strategy !== 'exact') notes.push(editNotes.fuzzy(outcome.strategy));
  const strategy = outcome.lineNumberPrefixStripped
    ? `line_number_prefix_stripped+${outcome.strategy}`
    : outcome.strategy;
  const content = [
    `path=${display}`,
    `strategy=${strategy}`,
    `replacements=${applied.replacements}`,
    `start_line=${applied.first.line}`,
    ...(applied.replacements > 1 ? [`match_lines=[${listed.join(', ')}]`] : []),
    `lines=${applied.linesBefore}->${applied.linesAfter}`,
    ...notes,
    'snippet:',
    numberedSnippet(applied.text, applied.first.start, applied.first.end, applied.first.line),
  ].join('\n');
  return {
    content,
    isError: false,
    metadata: {
      path: relative,
      strategy: outcome.strategy,
      line_number_prefix_stripped: outcome.lineNumberPrefixStripped,
      replacements: applied.replacements,
      start_line: applied.first.line,
      match_lines: listed,
      lines_before: applied.linesBefore,
      lines_after: applied.linesAfter,
      match_ms: Math.round(outcome.elapsedMs * 10) / 10,
    },
  };
}

async function runEdit(
  args: EditArgs,
  ctx: ToolContext,
  options: EditToolOptions,
): Promise<ToolOutput> {
  const fail = failureReporter((type: EditErrorType) =>
    editFailure(type, { path: args.path, visibleTools: ctx.visibleTools }),
  );
  if (args.old_text === '') return fail(editText.emptyOldText, 'empty_old_text');
  if (args.old_text === args.new_text) return fail(editText.sameText, 'same_text');

  const resolved = await resolveInWorkdir(options.workdir ?? ctx.workdir, args.path, {
    access: 'write',
    protectedPaths: options.protectedPaths ?? [],
  });
  if (!resolved.ok) return fail(`edit: ${resolved.error}`, resolved.errorType);

  // stat before open: directories, FIFOs and huge files are refused without being opened.
  try {
    const stats = await stat(resolved.path);
    if (stats.isDirectory()) return fail(editText.isDirectory(args.path), 'is_directory');
    if (!stats.isFile()) {
      return fail(editText.notRegular(args.path, describeFileKind(stats)), 'not_regular_file');
    }
    if (stats.size > EDIT_LIMITS.maxFileBytes) {
      const limitMb = EDIT_LIMITS.maxFileBytes / 1024 / 1024;
      return fail(editText.tooLarge(args.path, formatSize(stats.size), limitMb), 'file_too_large', {
        size: stats.size,
      });
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return fail(editText.notFoundFile(args.path), 'not_found');
    }
    return fail(editText.readFailed(args.path, code), 'execution_error');
  }
  if (ctx.signal.aborted) return fail(editText.cancelled, 'cancelled');

  const lock = options.readLedger
    ? options.readLedger.withFileLock.bind(options.readLedger)
    : withFileLock;
  return lock(resolved.path, () =>
    editLocked(args, ctx, resolved.path, resolved.relative, options, fail),
  );
}

/**
 * Create the `edit` tool (not parallel-safe): replace old_text with new_text in an existing
 * UTF-8 file inside the workdir (`options.workdir`, else `ctx.workdir`), found by a degraded
 * matching pipeline (exact first, then increasingly tolerant strategies, each reported by name).
 * Exactly one match is required unless `replace_all`. The file's EOL style, BOM,
 * trailing-newline state and mode are kept; the write is atomic; edits of one file are
 * serialised. With a `readLedger`, the run must have read the file, unchanged since. Refusals
 * carry a typed `failure` whose advice names only visible tools.
 *
 * The final write goes through descriptors of the checked directories (`writeFileConfined`), so a
 * directory swapped for a symlink between the guard and the write makes it fail instead of
 * writing outside the workdir; without `/proc/self/fd` (non-Linux) it falls back to a
 * path-based write after a realpath re-check, which narrows but cannot close that window.
 * The file is read through one descriptor whose real path is checked to be inside the workdir,
 * so a swap before the read shows nothing from outside either. Residual risks: the pre-write
 * checks still go by path; the atomic rename gives the file a new inode (owner = this process,
 * hard links are detached rather than written through).
 *
 * @example
 * const edit = createEditTool({ protectedPaths: [stateDir], readLedger: ledger });
 * const out = await edit.run(edit.parse({ path: 'src/a.ts', old_text: 'let a = 1;', new_text: 'let a = 2;' }), ctx);
 * // out.content starts with 'path=src/a.ts\nstrategy=exact\nreplacements=1\nstart_line=3'
 */
export function createEditTool(options: EditToolOptions = {}): Tool<EditArgs> {
  const tool = defineTool({
    name: 'edit',
    description: editText.description,
    parameters: editSchema,
    parallelSafe: false,
    run: (args, ctx) => runEdit(args, ctx, options),
  });
  // The ledger outlives a pause for approval, so an approved change is not refused for lack of a read.
  return options.readLedger ? { ...tool, carry: options.readLedger.carry } : tool;
}
