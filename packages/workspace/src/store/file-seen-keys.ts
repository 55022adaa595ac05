import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errorMessage, type Logger, type SeenKeys, StateError } from '@tiny-claw/core';
import {
  checkStoreKey,
  checkTtlMs,
  SEEN_KEYS_MAX_ENTRIES,
  STORE_KEY_MAX_CHARS,
} from '@tiny-claw/core/store';
import { isErrnoError } from '@tiny-claw/core/utils';
import { z } from 'zod';
import { writeFileAtomic } from '../files/index.js';

/**
 * Where the seen keys of a state dir live. The chat server kept its seen event ids in this file
 * before the state store existed; the file store keeps using it, so a state dir written by an
 * older server keeps its ids.
 */
export const SEEN_KEYS_FILE = join('feishu', 'seen-events.jsonl');

/** How long a line without an expiry (written by an older server) is kept: 12 hours. */
export const LEGACY_SEEN_TTL_MS = 12 * 60 * 60 * 1000;

/** How many remembers pass between two sweeps of expired keys. */
const SWEEP_EVERY = 1000;

/**
 * One line of the seen-keys file: the key, when it was remembered and when it expires (ms since
 * the epoch). `e` is absent from lines written by an older server.
 *
 * @example
 * seenLineSchema.parse({ k: 'event:ev_1', t: 1767225600000, e: 1767268800000 });
 */
export const seenLineSchema = z.object({
  k: z.string().min(1).max(STORE_KEY_MAX_CHARS),
  t: z.number().int().nonnegative(),
  e: z.number().int().nonnegative().optional(),
});

/** Options of {@link FileSeenKeys}. */
export interface FileSeenKeysOptions {
  logger: Logger;
  clock: () => Date;
  /** Unexpired keys kept before the oldest are forgotten (default 100,000). */
  maxEntries?: number;
}

/** When a key was remembered and when it expires (ms since the epoch). */
interface Seen {
  t: number;
  e: number;
}

/**
 * Seen keys of a state dir: kept in memory and in a JSONL file (`feishu/seen-events.jsonl`), so a
 * restart does not forget them. The file is read on the first remember and rewritten atomically
 * with only the unexpired keys, then and whenever it has grown to several times their number;
 * unreadable lines (a torn last line after a crash) are skipped with a warning.
 *
 * A remember is decided in memory at once, so of concurrent callers of one key exactly one wins,
 * and its line is written behind the answer, together with the others of the moment (one append):
 * waiting for the disk would only delay whoever acts on the answer. A write that fails is logged
 * on the logger, and the key stays remembered by this process. {@link close} waits for the
 * writes under way. Appends are not fsynced: only a machine crash can lose the last moments.
 *
 * Other processes learn a key only when they next read the file: the file serves the one process
 * per state dir that de-duplicates (the chat server); replicas need a shared store.
 *
 * @example
 * const seen = new FileSeenKeys(join(stateDir, SEEN_KEYS_FILE), { logger, clock: () => new Date() });
 * if (!(await seen.remember('event:ev_1', 12 * 60 * 60 * 1000))) return; // a repeat
 */
export class FileSeenKeys implements SeenKeys {
  readonly path: string;
  readonly #logger: Logger;
  readonly #clock: () => Date;
  readonly #maxEntries: number;
  /** Key → when; insertion order is remember order, so the oldest come first. */
  readonly #entries = new Map<string, Seen>();
  #loaded: Promise<void> | undefined;
  #pending: string[] = [];
  #linesInFile = 0;
  #sinceSweep = 0;
  /** Every write, in order: an append never overlaps a rewrite. */
  #writes: Promise<void> = Promise.resolve();
  #nextWrite: Promise<void> | undefined;

  constructor(path: string, options: FileSeenKeysOptions) {
    this.path = path;
    this.#logger = options.logger;
    this.#clock = options.clock;
    this.#maxEntries = options.maxEntries ?? SEEN_KEYS_MAX_ENTRIES;
  }

  async remember(key: string, ttlMs: number): Promise<boolean> {
    checkStoreKey(key, 'seen key');
    checkTtlMs(ttlMs);
    await this.#load();
    // From here to the return nothing awaits: the decision is one synchronous step.
    const now = this.#clock().getTime();
    const seen = this.#entries.get(key);
    if (seen !== undefined && seen.e > now) return false;
    const line: Seen = { t: now, e: now + ttlMs };
    this.#entries.delete(key);
    this.#entries.set(key, line);
    this.#pending.push(`${JSON.stringify({ k: key, ...line })}\n`);
    this.#sinceSweep += 1;
    if (this.#sinceSweep >= SWEEP_EVERY || this.#entries.size > this.#maxEntries) this.#sweep(now);
    this.#writeBehind();
    return true;
  }

  /**
   * Resolves once every key remembered so far is in the file (a write that failed has been
   * logged).
   *
   * @example
   * await seen.close();
   */
  async close(): Promise<void> {
    await this.#writes;
  }

  /** Read the file once (again after a failure), and rewrite it with the unexpired keys only. */
  #load(): Promise<void> {
    this.#loaded ??= this.#readFile().catch((error: unknown) => {
      this.#loaded = undefined;
      throw new StateError(`Could not read the seen keys in ${this.path}: ${errorMessage(error)}`, {
        cause: error,
      });
    });
    return this.#loaded;
  }

  async #readFile(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if (isErrnoError(error, 'ENOENT')) return;
      throw error;
    }
    let skipped = 0;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      let parsed: z.infer<typeof seenLineSchema>;
      try {
        parsed = seenLineSchema.parse(JSON.parse(line));
      } catch {
        skipped += 1;
        continue;
      }
      // A later line of a key wins, and moves the key to its place in remember order.
      this.#entries.delete(parsed.k);
      this.#entries.set(parsed.k, { t: parsed.t, e: parsed.e ?? parsed.t + LEGACY_SEEN_TTL_MS });
    }
    if (skipped > 0) this.#logger.warn(`skipped ${skipped} unreadable line(s) of ${this.path}`);
    // Nothing is written before the file is read, so this rewrite races no append.
    await this.#compact();
  }

  /** Drop expired keys and, past the bound, the oldest unexpired ones. */
  #sweep(now: number): void {
    this.#sinceSweep = 0;
    for (const [key, seen] of this.#entries) if (seen.e <= now) this.#entries.delete(key);
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(key);
    }
  }

  /** Append the pending lines with the next write, shared by every remember until it starts. */
  #writeBehind(): void {
    if (this.#nextWrite) return;
    const next = this.#writes.then(() => {
      this.#nextWrite = undefined;
      return this.#appendPending();
    });
    this.#nextWrite = next;
    this.#writes = next.catch((error: unknown) => {
      this.#logger.error(`could not record seen keys in ${this.path}: ${errorMessage(error)}`);
    });
  }

  async #appendPending(): Promise<void> {
    if (this.#pending.length === 0) return;
    const lines = this.#pending;
    this.#pending = [];
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await appendFile(this.path, lines.join(''), { mode: 0o600 });
    this.#linesInFile += lines.length;
    if (this.#linesInFile > Math.max(10_000, 3 * this.#entries.size)) await this.#compact();
  }

  /**
   * Replace the file with the unexpired keys only (atomically). A key whose line is still pending
   * is written again by the next append, which is harmless: the later line wins.
   */
  async #compact(): Promise<void> {
    this.#sweep(this.#clock().getTime());
    const lines = [...this.#entries].map(([k, seen]) => `${JSON.stringify({ k, ...seen })}\n`);
    await writeFileAtomic(this.path, lines.join(''));
    this.#linesInFile = lines.length;
  }
}
