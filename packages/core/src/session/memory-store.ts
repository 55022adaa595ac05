import { open } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { errorMessage, StateError } from '../errors.js';
import { isErrnoError } from '../store/errno.js';
import { appendJsonLines } from '../store/jsonl-append.js';

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
// schemaVersion is skipped rather than misread.
const readableLineSchema = z.object({
  schemaVersion: z.literal(1).optional(),
  key: z.string().optional(),
  value: z.string().optional(),
});

const NEWLINE = 0x0a;
const CHUNK_SIZE = 64 * 1024;
const DEFAULT_RECENT_LIMIT = 5;

/**
 * The JSONL memory of one session: `<dir>/memory.jsonl`, appended to, read from the end.
 *
 * @example
 * const memory = new FileMemoryStore(sessionDir);
 * await memory.append([{ key: 'last_prompt', value: 'hi' }, { key: 'last_response', value: 'hello' }]);
 * await memory.readRecent(); // ['last_prompt: hi', 'last_response: hello']
 */
export class FileMemoryStore {
  readonly path: string;

  constructor(dir: string) {
    this.path = join(resolve(dir), 'memory.jsonl');
  }

  /**
   * Append `entries` as one write, so a run's prompt and response land together. A truncated last
   * line left by a crash is first closed with a newline: it stays in the file (nothing is ever
   * removed) but is no longer glued to the new entries.
   *
   * @example
   * await memory.append([{ key: 'last_prompt', value: 'fix the test' }]);
   */
  async append(entries: readonly MemoryEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const at = new Date().toISOString();
    const lines = entries.map(
      (entry): MemoryLine => ({ schemaVersion: 1, key: entry.key, value: entry.value, at }),
    );
    await appendJsonLines(this.path, lines, { label: 'the memory file' });
  }

  /**
   * `"<key>: <value>"` for each readable line among the last `limit` lines, in file order. Blank,
   * invalid and empty lines are skipped (and still count towards `limit`). Only the end of the
   * file is read, so a huge memory costs no more than a small one.
   *
   * @example
   * await memory.readRecent(5); // ['last_prompt: hi', 'last_response: hello']
   */
  async readRecent(limit = DEFAULT_RECENT_LIMIT): Promise<string[]> {
    if (!(limit >= 1)) return [];
    let tail: Buffer;
    try {
      tail = await readTailLines(this.path, Math.floor(limit));
    } catch (error) {
      if (isErrnoError(error, 'ENOENT')) return [];
      throw new StateError(`Could not read the memory file ${this.path}: ${errorMessage(error)}`, {
        cause: error,
      });
    }
    const lines = tail.toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines.slice(-Math.floor(limit)).flatMap((line) => {
      const formatted = formatLine(line);
      return formatted === undefined ? [] : [formatted];
    });
  }
}

function formatLine(line: string): string | undefined {
  if (line.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  const result = readableLineSchema.safeParse(parsed);
  if (!result.success) return undefined;
  const key = result.data.key ?? '';
  const value = result.data.value ?? '';
  if (key === '' && value === '') return undefined;
  return `${key}: ${value}`;
}

/**
 * The bytes of the file from the start of its last `limit` lines, read backwards in chunks until
 * `limit + 1` newlines are seen (enough whether or not the file ends with one).
 */
async function readTailLines(path: string, limit: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const chunks: Buffer[] = [];
    let position = size;
    let newlines = 0;
    while (position > 0 && newlines < limit + 1) {
      const length = Math.min(CHUNK_SIZE, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      const { bytesRead } = await handle.read(chunk, 0, length, position);
      const read = chunk.subarray(0, bytesRead);
      for (let at = read.indexOf(NEWLINE); at !== -1; at = read.indexOf(NEWLINE, at + 1)) {
        newlines += 1;
      }
      chunks.unshift(read);
    }
    const tail = Buffer.concat(chunks);
    if (position === 0) return tail;
    // Cut on a byte boundary before decoding: the chunk may start inside a multi-byte character.
    return tail.subarray(tail.indexOf(NEWLINE) + 1);
  } finally {
    await handle.close();
  }
}
