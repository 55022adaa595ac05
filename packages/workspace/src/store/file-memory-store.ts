import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { errorMessage, type RunMemory, StateError } from '@tiny-claw/core';
import { MEMORY_MAX_LINES, memoryValue } from '@tiny-claw/core/store';
import { isErrnoError } from '@tiny-claw/core/utils';
import { z } from 'zod';
import { appendJsonLines, withPathLock, writeFileAtomic } from '../files/index.js';
import { readTailLines } from './jsonl-tail.js';

/**
 * One line of `memory.jsonl` as written today.
 *
 * @example
 * memoryLineSchema.parse({ schemaVersion: 1, key: 'last_prompt', value: 'hi', at: new Date().toISOString() });
 */
export const memoryLineSchema = z.object({
  schemaVersion: z.literal(1),
  key: z.string(),
  value: z.string(),
  at: z.iso.datetime(),
});

/** One line of `memory.jsonl`. */
export type MemoryLine = z.infer<typeof memoryLineSchema>;

/** One remembered fact, e.g. `{ key: 'last_prompt', value: 'fix the test' }`. */
export interface MemoryEntry {
  key: string;
  value: string;
}

// Also reads the original tiny-claw's `{"key": …, "value": …}` lines; an unknown future
// schemaVersion is skipped rather than misread. Other fields (`at`) are kept for compaction.
const readableLineSchema = z.looseObject({
  schemaVersion: z.literal(1).optional(),
  key: z.string().optional(),
  value: z.string().optional(),
});

const DEFAULT_RECENT_LIMIT = 5;

// Compaction waits until the file holds twice the lines it keeps, so one rewrite of 200 lines pays
// for 200 appends instead of every append rewriting the file.
const COMPACT_AT_LINES = 2 * MEMORY_MAX_LINES;
// A file this large is compacted whatever its line count: older versions wrote values whole.
const COMPACT_AT_BYTES = 8 * 1024 * 1024;
// Below this size the file cannot hold COMPACT_AT_LINES lines (a line is never under 64 bytes),
// so the lines are not even counted.
const COUNT_FROM_BYTES = COMPACT_AT_LINES * 64;
// A line written today is at most two capped values, even fully escaped; a longer line was written
// by an older version and is skipped when read and dropped when compacted.
const MAX_LINE_BYTES = 256 * 1024;

/**
 * The JSONL memory of one session: `<dir>/memory.jsonl`, appended to, read from the end. Every
 * value is passed through the shared secret rules and cut to 8,000 characters before it is
 * written, and the file is compacted to its last 200 lines once it holds 400.
 *
 * @example
 * const memory = new FileMemoryStore(sessionDir);
 * await memory.append([{ key: 'last_prompt', value: 'hi' }, { key: 'last_response', value: 'hello' }]);
 * await memory.readRecent(); // ['last_prompt: hi', 'last_response: hello']
 */
export class FileMemoryStore implements RunMemory {
  readonly path: string;

  constructor(dir: string) {
    this.path = join(resolve(dir), 'memory.jsonl');
  }

  /**
   * Append `entries` as one write, so a run's prompt and response land together. Each value is
   * redacted and capped first (see `memoryValue`). A truncated last line left by a crash is first
   * closed with a newline, so it is no longer glued to the new entries. Once the file holds 400
   * lines (or 8 MiB) it is rewritten atomically with its last 200; concurrent appends in this
   * process wait for that rewrite.
   *
   * @example
   * await memory.append([{ key: 'last_prompt', value: 'fix the test' }]);
   */
  async append(entries: readonly MemoryEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const at = new Date().toISOString();
    const lines = entries.map(
      (entry): MemoryLine => ({
        schemaVersion: 1,
        key: memoryValue(entry.key),
        value: memoryValue(entry.value),
        at,
      }),
    );
    await appendJsonLines(this.path, lines, { label: 'the memory file' });
    await withPathLock(this.path, () => this.#compactIfLarge());
  }

  /**
   * `"<key>: <value>"` for each readable line among the last `limit` lines, in file order. Blank,
   * invalid, empty and oversized lines are skipped (and still count towards `limit`); values are
   * redacted and capped as on append, in case an older version wrote them. Only the end of the
   * file is read, so a huge memory costs no more than a small one.
   *
   * @example
   * await memory.readRecent(5); // ['last_prompt: hi', 'last_response: hello']
   */
  async readRecent(limit = DEFAULT_RECENT_LIMIT): Promise<string[]> {
    if (!(limit >= 1)) return [];
    let lines: Array<string | undefined>;
    try {
      lines = await readTailLines(this.path, Math.floor(limit), MAX_LINE_BYTES);
    } catch (error) {
      if (isErrnoError(error, 'ENOENT')) return [];
      throw new StateError(`Could not read the memory file ${this.path}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
    return lines.flatMap((line) => {
      const entry = line === undefined ? undefined : readLine(line);
      return entry === undefined ? [] : [`${entry.key}: ${entry.value}`];
    });
  }

  /**
   * Rewrite the file with its last {@link MEMORY_MAX_LINES} readable lines (each redacted
   * and capped again) when it has grown past the trigger. Lines that cannot be read are dropped:
   * they never reach the model, so keeping them would only keep whatever they hold.
   */
  async #compactIfLarge(): Promise<void> {
    try {
      const { size } = await stat(this.path);
      if (size < COUNT_FROM_BYTES) return;
      if (size <= COMPACT_AT_BYTES) {
        const counted = await readTailLines(this.path, COMPACT_AT_LINES + 1, 0);
        if (counted.length <= COMPACT_AT_LINES) return;
      }
      const kept = (await readTailLines(this.path, MEMORY_MAX_LINES, MAX_LINE_BYTES)).flatMap(
        (line) => {
          const rewritten = line === undefined ? undefined : rewriteLine(line);
          return rewritten === undefined ? [] : [`${rewritten}\n`];
        },
      );
      await writeFileAtomic(this.path, kept.join(''));
    } catch (error) {
      throw new StateError(
        `Could not compact the memory file ${this.path}: ${errorMessage(error)}`,
        { cause: error },
      );
    }
  }
}

/** A line's key and (redacted, capped) value, or undefined for a line that is not a memory entry. */
function readLine(line: string): MemoryEntry | undefined {
  const parsed = parseLine(line);
  if (parsed === undefined) return undefined;
  const key = parsed.key ?? '';
  const value = parsed.value ?? '';
  if (key === '' && value === '') return undefined;
  return { key: memoryValue(key), value: memoryValue(value) };
}

/** The line with its key and value redacted and capped, other fields kept; undefined when unreadable. */
function rewriteLine(line: string): string | undefined {
  const parsed = parseLine(line);
  if (parsed === undefined) return undefined;
  const rewritten: Record<string, unknown> = { ...parsed };
  if (parsed.key !== undefined) rewritten.key = memoryValue(parsed.key);
  if (parsed.value !== undefined) rewritten.value = memoryValue(parsed.value);
  return JSON.stringify(rewritten);
}

function parseLine(line: string): z.infer<typeof readableLineSchema> | undefined {
  if (line.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  const result = readableLineSchema.safeParse(parsed);
  return result.success ? result.data : undefined;
}
