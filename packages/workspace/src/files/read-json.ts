import { link, lstat, readFile, rename, unlink } from 'node:fs/promises';
import { errorMessage, StateError } from '@tiny-claw/core';
import { escapedSnippet, isErrnoError } from '@tiny-claw/core/utils';
import type { z } from 'zod';

/**
 * A state file could not be understood and was moved aside to `quarantinedPath`, so a fresh file
 * can be written without destroying what the user may want to recover.
 *
 * @example
 * if (error instanceof QuarantinedFileError) logger.warn(error.message);
 */
export class QuarantinedFileError extends StateError {
  readonly path: string;
  readonly quarantinedPath: string;

  constructor(
    message: string,
    options: { path: string; quarantinedPath: string; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.path = options.path;
    this.quarantinedPath = options.quarantinedPath;
  }
}

/**
 * Read and validate a JSON state file.
 *
 * @returns the parsed value, or `undefined` when the file does not exist.
 * @throws QuarantinedFileError (a StateError) when the file is not valid JSON or does not match
 * `schema`; the file has then been renamed to `<name>.unreadable-<timestamp>`. Never returns a
 * silent default, because the caller would overwrite the only copy of the user's state.
 * @throws StateError when the file exists but cannot be read.
 *
 * @example
 * const meta = await readJsonFile(join(dir, 'meta.json'), sessionMetaSchema);
 */
export async function readJsonFile<T>(path: string, schema: z.ZodType<T>): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isErrnoError(error, 'ENOENT')) return undefined;
    throw new StateError(`Could not read ${path}: ${errorMessage(error)}`, { cause: error });
  }

  let problem: string;
  let cause: unknown;
  try {
    const result = schema.safeParse(JSON.parse(text));
    if (result.success) return result.data;
    problem = `it does not have the expected format (${describeIssues(result.error)})`;
    cause = result.error;
  } catch (error) {
    problem = text.trim() === '' ? 'it is empty' : `it is not valid JSON (${jsonErrorText(error)})`;
    cause = error;
  }

  let quarantinedPath: string;
  try {
    quarantinedPath = await quarantineFile(path);
  } catch (error) {
    throw new StateError(
      `${path} is unreadable: ${problem}. It could not be moved aside (${errorMessage(error)}); ` +
        'move or delete it yourself, then try again.',
      { cause },
    );
  }
  throw new QuarantinedFileError(
    `${path} is unreadable: ${problem}. It was moved to ${quarantinedPath} so nothing overwrites ` +
      'it; repair it and move it back, or delete it to start fresh.',
    { path, quarantinedPath, cause },
  );
}

/**
 * Rename `path` to `<path>.unreadable-<UTC timestamp>` (plus `-1`, `-2`, … when that name is
 * taken) and return the new path. An earlier quarantined file is never overwritten.
 *
 * @example
 * await quarantineFile('/state/meta.json'); // '/state/meta.json.unreadable-20261129T225300Z'
 */
export async function quarantineFile(path: string): Promise<string> {
  const base = `${path}.unreadable-${compactTimestamp(new Date())}`;
  for (let counter = 0; ; counter += 1) {
    const candidate = counter === 0 ? base : `${base}-${counter}`;
    if (await moveIfFree(path, candidate)) return candidate;
  }
}

/** True when moved, false when `to` already exists. */
async function moveIfFree(from: string, to: string): Promise<boolean> {
  try {
    // link() fails with EEXIST instead of replacing, which rename() would silently do.
    await link(from, to);
  } catch (error) {
    if (isErrnoError(error, 'EEXIST')) return false;
    // No hard links on this filesystem: check, then rename (a small race, but still no data loss
    // unless two processes quarantine in the same second).
    if (await exists(to)) return false;
    await rename(from, to);
    return true;
  }
  await unlink(from);
  return true;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (isErrnoError(error, 'ENOENT')) return false;
    throw error;
  }
}

/** `20261129T225300Z`: sortable, and free of `:` which Windows forbids in file names. */
function compactTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

/**
 * Why `JSON.parse` refused a file, safe to print: the parser quotes the text around the fault
 * (`Unexpected token … "…" is not valid JSON`), and a corrupt file may hold escape sequences, so
 * the quote is escaped and kept short.
 */
function jsonErrorText(error: unknown): string {
  return escapedSnippet(errorMessage(error), 160);
}

/** The first issues of a file that does not match its schema; keys and messages come from the file. */
function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
    return `${escapedSnippet(where, 80)}: ${escapedSnippet(issue.message, 160)}`;
  });
  const more = error.issues.length > 3 ? `; and ${error.issues.length - 3} more` : '';
  return `${shown.join('; ')}${more}`;
}
