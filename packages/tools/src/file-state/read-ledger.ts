import type { ToolCarry } from '@tiny-claw/core';
import { z } from 'zod';
import { withFileLock } from './file-lock.js';
import { type FileFingerprint, sameFingerprint } from './fingerprint.js';

/** What a saved ledger of one run looks like when it comes back from a checkpoint. */
const savedRunSchema = z.record(
  z.string().min(1),
  z.object({
    mtimeMs: z.number(),
    size: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
);

/** The carry key of read ledgers: tools sharing one ledger share its state across a pause. */
export const READ_LEDGER_CARRY_KEY = 'read-ledger';

/**
 * Result of {@link ReadLedger.check}:
 * - `ok`: the file was read in this run and is unchanged since;
 * - `not_read`: no read of this file was recorded in this run ("read it first");
 * - `modified`: it was read, but mtime, size or content differ now ("read it again").
 *
 * @example
 * const verdict: ReadLedgerVerdict = ledger.check(runId, abs, current);
 */
export type ReadLedgerVerdict = 'ok' | 'not_read' | 'modified';

/**
 * Options of {@link ReadLedger}.
 *
 * @example
 * const ledger = new ReadLedger({ maxRuns: 16 });
 */
export interface ReadLedgerOptions {
  /** Runs remembered at once; the least recently used run is forgotten beyond this. Default 64. */
  maxRuns?: number;
}

/**
 * Which files each run has read, and in what state, so that `edit`/`write` can refuse to change
 * a file the model has not seen or that changed after it looked. `read` records,
 * `edit`/`write` check and then record the state they wrote (so consecutive edits work).
 * Paths are the canonical absolute paths returned by `resolveInWorkdir`.
 *
 * Also hands out the per-file lock ({@link withFileLock}) that serialises concurrent changes of
 * one file.
 *
 * @example
 * const ledger = new ReadLedger();
 * ledger.recordRead('run-1', '/repo/a.ts', fingerprintOf(bytes, stats));
 * ledger.check('run-1', '/repo/a.ts', fingerprintOf(bytes, stats)); // 'ok'
 * ledger.check('run-2', '/repo/a.ts', fingerprintOf(bytes, stats)); // 'not_read'
 */
export class ReadLedger {
  readonly #runs = new Map<string, Map<string, FileFingerprint>>();
  readonly #maxRuns: number;

  constructor(options: ReadLedgerOptions = {}) {
    this.#maxRuns = Math.max(1, options.maxRuns ?? 64);
  }

  /**
   * Remember that `runId` has seen `absPath` in state `state`.
   *
   * @example
   * ledger.recordRead(ctx.runId, resolved.path, fingerprintOf(bytes, stats));
   */
  recordRead(runId: string, absPath: string, state: FileFingerprint): void {
    let files = this.#runs.get(runId);
    if (files) {
      // Re-insert to mark the run as most recently used.
      this.#runs.delete(runId);
    } else {
      files = new Map();
    }
    this.#runs.set(runId, files);
    files.set(absPath, { ...state });
    while (this.#runs.size > this.#maxRuns) {
      const oldest = this.#runs.keys().next().value;
      if (oldest === undefined) break;
      this.#runs.delete(oldest);
    }
  }

  /**
   * Compare the file's `current` state with what `runId` last read.
   *
   * @example
   * if (ledger.check(runId, abs, current) === 'modified') return fail('read it again');
   */
  check(runId: string, absPath: string, current: FileFingerprint): ReadLedgerVerdict {
    const seen = this.#runs.get(runId)?.get(absPath);
    if (seen === undefined) return 'not_read';
    return sameFingerprint(seen, current) ? 'ok' : 'modified';
  }

  /**
   * The state `runId` last recorded for `absPath`, if any.
   *
   * @example
   * ledger.lastRead('run-1', '/repo/a.ts')?.sha256;
   */
  lastRead(runId: string, absPath: string): FileFingerprint | undefined {
    const seen = this.#runs.get(runId)?.get(absPath);
    return seen === undefined ? undefined : { ...seen };
  }

  /**
   * Drop everything recorded for a finished run.
   *
   * @example
   * ledger.forgetRun(result.runId);
   */
  forgetRun(runId: string): void {
    this.#runs.delete(runId);
  }

  /**
   * The ledger as a tool's per-run state, so it survives a pause for approval: the files a run
   * read before the pause still count when the approved call runs (in this process or another).
   * A file changed since is still refused, because its fingerprint no longer matches.
   *
   * @example
   * const read = { ...createReadTool({ readLedger: ledger }), carry: ledger.carry };
   */
  get carry(): ToolCarry {
    return {
      key: READ_LEDGER_CARRY_KEY,
      save: (runId) => {
        const files = this.#runs.get(runId);
        return files && files.size > 0 ? Object.fromEntries(files) : undefined;
      },
      restore: (runId, data) => {
        const parsed = savedRunSchema.safeParse(data);
        if (!parsed.success) return;
        for (const [absPath, state] of Object.entries(parsed.data)) {
          this.recordRead(runId, absPath, state);
        }
      },
    };
  }

  /**
   * Run `fn` holding the process-wide lock of `absPath` (see {@link withFileLock}). Do the
   * check, the read-modify-write and the {@link recordRead} inside it.
   *
   * @example
   * await ledger.withFileLock(abs, async () => { … check, write, recordRead … });
   */
  withFileLock<T>(absPath: string, fn: () => Promise<T>): Promise<T> {
    return withFileLock(absPath, fn);
  }
}
