import { join, resolve } from 'node:path';
import { type Logger, nullLogger, type StateStore } from '@tiny-claw/core';
import { PlanFileStore } from '@tiny-claw/core/store';
import { sessionDirectory } from '../files/index.js';
import { diskPlanFiles } from './disk-plan-files.js';
import { FileApprovalStore } from './file-approval-store.js';
import { FileCheckpointStore } from './file-checkpoint-store.js';
import { FileLeases } from './file-leases.js';
import { FileMemoryStore } from './file-memory-store.js';
import { FileSeenKeys, SEEN_KEYS_FILE } from './file-seen-keys.js';
import { FileTraceIndex } from './file-trace-index.js';
import { FileUsageRecorder } from './file-usage-recorder.js';
import { writeSessionMeta } from './session-meta.js';

/**
 * Options of {@link createFileStore}.
 *
 * @example
 * const options: FileStoreOptions = { logger: createStderrLogger('warn') };
 */
export interface FileStoreOptions {
  /** Where warnings go (a corrupt file moved aside, a seen key that could not be written). */
  logger?: Logger;
  /** The time seen keys and leases expire by (default: the system clock); a test passes a fake one. */
  clock?: () => Date;
}

/**
 * A state store in a directory, as {@link createFileStore} makes it.
 *
 * @example
 * const store: FileStore = createFileStore('/home/me/.tiny-claw');
 * console.log(store.dir);
 */
export interface FileStore extends StateStore {
  /** The state directory (absolute). */
  readonly dir: string;
}

/**
 * A state store under `dir` (the CLI's state directory, `~/.tiny-claw` by default), laid out as
 * tiny-claw has always laid it out:
 *
 * - `sessions/<key>/meta.json` — the session record;
 * - `sessions/<key>/memory.jsonl` — its memory (redacted, capped, compacted to the last 200 lines);
 * - `sessions/<key>/plan/PLAN.md`, `TODO.md` — its plan;
 * - `sessions/<key>/approvals/<id>.json` — its approval requests, with `<id>.claim` beside a
 *   claimed one (created with `link(2)`: one claimant, across processes);
 * - `sessions/<key>/checkpoints/<id>.json` — the states of its paused runs;
 * - `sessions/<key>/traces/<traceId>.json` — its traces (written by the tracer; the index reads
 *   these files);
 * - `usage/model-calls.jsonl` — one content-free line per model call;
 * - `feishu/seen-events.jsonl` — the seen keys;
 * - `leases/<hash>/<generation>.json` — the leases.
 *
 * Directories are 0700 and files 0600; every rewrite is atomic; a corrupt record is moved aside as
 * `<name>.unreadable-<time>` and reported, never silently replaced.
 *
 * @example
 * const store = createFileStore(join(homedir(), '.tiny-claw'), { logger });
 * const agent = createAgent({ provider, store });
 */
export function createFileStore(dir: string, options: FileStoreOptions = {}): FileStore {
  const root = resolve(dir);
  const logger = options.logger ?? nullLogger;
  const clock = options.clock ?? (() => new Date());
  const seen = new FileSeenKeys(join(root, SEEN_KEYS_FILE), { logger, clock });
  return {
    dir: root,
    usage: new FileUsageRecorder(root),
    saveSession: (session) => writeSessionMeta(root, session, logger),
    memory: (session) => new FileMemoryStore(sessionDirectory(root, session.key)),
    plans: (session) =>
      new PlanFileStore(diskPlanFiles(join(sessionDirectory(root, session.key), 'plan'))),
    runStates: new FileCheckpointStore(root),
    approvals: new FileApprovalStore(root),
    seen,
    leases: new FileLeases(root, { logger, clock }),
    traces: new FileTraceIndex(root),
    close: () => seen.close(),
  };
}
