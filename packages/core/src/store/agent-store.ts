import { join, resolve } from 'node:path';
import { FileUsageRecorder } from '../observe/file-usage-recorder.js';
import { type Logger, nullLogger } from '../observe/logger.js';
import type { UsageRecorder } from '../observe/usage.js';
import {
  diskPlanFiles,
  memoryPlanFiles,
  PlanFileStore,
  type PlanStore,
} from '../plan/plan-files.js';
import { FileMemoryStore, MEMORY_FILE_MAX_LINES } from '../session/memory-store.js';
import { memoryValue } from '../session/memory-value.js';
import { sessionDirectory, validateSessionKey } from '../session/session-key.js';
import { writeSessionMeta } from '../session/session-meta.js';
import type { SessionRef } from '../session/session-ref.js';

/**
 * The memory of one session as a run uses it: the last lines to put in the prompt, and the lines
 * a finished run adds.
 *
 * @example
 * await memory.append([{ key: 'last_prompt', value: 'hi' }]);
 * await memory.readRecent(5); // ['last_prompt: hi']
 */
export interface RunMemory {
  append(entries: ReadonlyArray<{ key: string; value: string }>): Promise<void>;
  readRecent(limit?: number): Promise<string[]>;
}

/**
 * Where an agent keeps what outlives a run: session records, memory, plan files and usage lines.
 * {@link createMemoryStore} (the default) keeps everything in the process; {@link createFileStore}
 * writes under a state directory.
 *
 * @example
 * const agent = createAgent({ provider, store: createFileStore('/home/me/.tiny-claw') });
 */
export interface AgentStore {
  /** The directory the store writes under; undefined for a store in memory. */
  readonly dir: string | undefined;
  /** Receives one record per model call; undefined keeps none. */
  readonly usage: UsageRecorder | undefined;
  /** Record that `session` is in use. */
  saveSession(session: SessionRef): Promise<void>;
  memory(session: Pick<SessionRef, 'key'>): RunMemory;
  plans(session: Pick<SessionRef, 'key'>): PlanStore;
}

/**
 * A store that keeps sessions, memory and plans in this process only: nothing is written to disk.
 * Memory and plans survive from one run to the next of the same agent (same session), not a restart.
 *
 * @example
 * const store = createMemoryStore();
 * const agent = createAgent({ provider, store });
 */
export function createMemoryStore(): AgentStore {
  const memories = new Map<string, RunMemory>();
  const plans = new Map<string, PlanStore>();
  return {
    dir: undefined,
    usage: undefined,
    async saveSession(session) {
      validateSessionKey(session.key);
    },
    memory(session) {
      const key = validateSessionKey(session.key);
      let memory = memories.get(key);
      if (!memory) {
        memory = memoryLines();
        memories.set(key, memory);
      }
      return memory;
    },
    plans(session) {
      const key = validateSessionKey(session.key);
      let store = plans.get(key);
      if (!store) {
        store = new PlanFileStore(memoryPlanFiles(`memory:${key}/plan`));
        plans.set(key, store);
      }
      return store;
    },
  };
}

/**
 * A store under `dir` (the CLI's state directory, `~/.tiny-claw` by default):
 * `sessions/<key>/meta.json`, `sessions/<key>/memory.jsonl`, `sessions/<key>/plan/{PLAN,TODO}.md`
 * and `usage/model-calls.jsonl`. Directories are 0700 and files 0600; every write is atomic.
 *
 * @example
 * const store = createFileStore(join(homedir(), '.tiny-claw'));
 */
export function createFileStore(dir: string, options: { logger?: Logger } = {}): AgentStore {
  const root = resolve(dir);
  const logger = options.logger ?? nullLogger;
  return {
    dir: root,
    usage: new FileUsageRecorder(root),
    saveSession: (session) => writeSessionMeta(root, session, logger),
    memory: (session) => new FileMemoryStore(sessionDirectory(root, session.key)),
    plans: (session) =>
      new PlanFileStore(diskPlanFiles(join(sessionDirectory(root, session.key), 'plan'))),
  };
}

function memoryLines(): RunMemory {
  const lines: string[] = [];
  return {
    // Held to the same rules as the file store: redacted, capped, and only the last lines kept.
    async append(entries) {
      for (const entry of entries) {
        lines.push(`${memoryValue(entry.key)}: ${memoryValue(entry.value)}`);
      }
      if (lines.length > MEMORY_FILE_MAX_LINES)
        lines.splice(0, lines.length - MEMORY_FILE_MAX_LINES);
    },
    async readRecent(limit = 5) {
      return limit >= 1 ? lines.slice(-Math.floor(limit)) : [];
    },
  };
}
