import { type FileHandle, mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '@tiny-claw/core';
import { isErrnoError, writeFileAtomic } from '@tiny-claw/core/utils';
import { z } from 'zod';

/** Feishu retries a delivery for about 7 hours; ids are remembered well beyond that. */
export const SEEN_TTL_MS = 12 * 60 * 60 * 1000;
/** The most ids kept: the oldest are forgotten first, so a flood cannot exhaust memory. */
export const SEEN_MAX_ENTRIES = 100_000;

const lineSchema = z.object({
  k: z.string().min(1).max(300),
  t: z.number().int().nonnegative(),
});

/** Options of {@link SeenEvents.open}. */
export interface SeenEventsOptions {
  /** The JSONL file under the state dir. */
  path: string;
  logger: Logger;
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * The event and message ids this server has accepted in the last 12 hours, kept in memory and in
 * a JSONL file under the state dir so a restart does not forget them: Feishu delivers at least
 * once and retries for hours, and a message must still run only once.
 *
 * A claim is decided synchronously (so concurrent deliveries of one event cannot both win), then
 * made durable by {@link flush}, which writes every claim made so far in one append (group
 * commit). Appends are not fsynced — a crashed process loses nothing the kernel has; only a machine
 * crash can lose the last moments.
 * The file is rewritten atomically, with only live ids, when it is opened and whenever it has grown
 * to several times their number. Unreadable lines (a torn last line after a crash) are skipped.
 *
 * @example
 * const seen = await SeenEvents.open({ path: join(stateDir, 'feishu', 'seen-events.jsonl'), logger });
 * if (!seen.claim([`event:${id}`, `message:${messageId}`])) return duplicate();
 * await seen.flush();
 */
export class SeenEvents {
  readonly #path: string;
  readonly #logger: Logger;
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** Key → when it was claimed; insertion order is claim order, so the oldest come first. */
  readonly #entries = new Map<string, number>();
  #pending: string[] = [];
  #handle: FileHandle | undefined;
  #linesInFile = 0;
  #tail: Promise<void> = Promise.resolve();
  #next: Promise<void> | undefined;
  #claimsSinceSweep = 0;

  private constructor(options: SeenEventsOptions) {
    this.#path = options.path;
    this.#logger = options.logger;
    this.#ttlMs = options.ttlMs ?? SEEN_TTL_MS;
    this.#maxEntries = options.maxEntries ?? SEEN_MAX_ENTRIES;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Load the file (if any), drop expired ids, rewrite it compactly and open it for appending.
   *
   * @throws the file system's error when the state dir cannot be written.
   */
  static async open(options: SeenEventsOptions): Promise<SeenEvents> {
    const seen = new SeenEvents(options);
    await seen.#load();
    await seen.#compact();
    return seen;
  }

  /** How many ids are remembered. */
  get size(): number {
    return this.#entries.size;
  }

  /** True when `key` was claimed within the last 12 hours. */
  has(key: string): boolean {
    const at = this.#entries.get(key);
    return at !== undefined && this.#now() - at < this.#ttlMs;
  }

  /**
   * Claim every key at once: false (and nothing recorded) when any of them was seen within the
   * last 12 hours, true otherwise. Call {@link flush} before acting on a successful claim.
   */
  claim(keys: readonly string[]): boolean {
    if (keys.some((key) => this.has(key))) return false;
    const now = this.#now();
    for (const key of keys) {
      // Re-inserted so the Map's order stays claim order.
      this.#entries.delete(key);
      this.#entries.set(key, now);
      this.#pending.push(`${JSON.stringify({ k: key, t: now })}\n`);
    }
    this.#claimsSinceSweep += 1;
    if (this.#claimsSinceSweep >= 1000 || this.#entries.size > this.#maxEntries) this.#sweep();
    return true;
  }

  /** Resolves once every claim made so far is in the file. */
  flush(): Promise<void> {
    if (this.#next) return this.#next;
    const next = this.#tail.then(() => {
      this.#next = undefined;
      return this.#writePending();
    });
    this.#next = next;
    this.#tail = next.catch(() => {});
    return next;
  }

  /** Write what is pending and close the file. */
  async close(): Promise<void> {
    await this.flush().catch((error: unknown) => {
      this.#logger.warn(`could not save the seen Feishu event ids: ${String(error)}`);
    });
    await this.#handle?.close();
    this.#handle = undefined;
  }

  async #load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if (isErrnoError(error, 'ENOENT')) return;
      throw error;
    }
    let skipped = 0;
    const now = this.#now();
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      let parsed: z.infer<typeof lineSchema>;
      try {
        parsed = lineSchema.parse(JSON.parse(line));
      } catch {
        skipped += 1;
        continue;
      }
      this.#entries.delete(parsed.k);
      if (now - parsed.t < this.#ttlMs) this.#entries.set(parsed.k, parsed.t);
    }
    if (skipped > 0) {
      this.#logger.warn(`skipped ${skipped} unreadable line(s) of ${this.#path}`);
    }
    this.#sweep();
  }

  /** Drop expired ids (the oldest come first) and, past the bound, the oldest live ones. */
  #sweep(): void {
    this.#claimsSinceSweep = 0;
    const now = this.#now();
    for (const [key, at] of this.#entries) {
      if (now - at < this.#ttlMs && this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(key);
    }
  }

  async #writePending(): Promise<void> {
    if (this.#pending.length === 0) return;
    const lines = this.#pending;
    this.#pending = [];
    if (!this.#handle) await this.#openHandle();
    await (this.#handle as FileHandle).appendFile(lines.join(''));
    this.#linesInFile += lines.length;
    if (this.#linesInFile > Math.max(10_000, 3 * this.#entries.size)) await this.#compact();
  }

  /** Replace the file with the live ids only (atomically), then append to the new file. */
  async #compact(): Promise<void> {
    this.#sweep();
    await this.#handle?.close();
    this.#handle = undefined;
    const lines = [...this.#entries].map(([k, t]) => `${JSON.stringify({ k, t })}\n`);
    await writeFileAtomic(this.#path, lines.join(''));
    this.#linesInFile = lines.length;
    await this.#openHandle();
  }

  async #openHandle(): Promise<void> {
    await mkdir(dirname(this.#path), { recursive: true, mode: 0o700 });
    this.#handle = await open(this.#path, 'a', 0o600);
  }
}
