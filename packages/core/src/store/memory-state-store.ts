import { memoryPlanFiles, PlanFileStore, type PlanStore } from '../plan/plan-files.js';
import { validateSessionKey } from '../session/session-key.js';
import { MemoryApprovalStore } from './memory-approval-store.js';
import { MemoryCheckpointStore } from './memory-checkpoint-store.js';
import { memoryLeases } from './memory-leases.js';
import { memoryRunMemory } from './memory-run-memory.js';
import { memorySeenKeys } from './memory-seen-keys.js';
import { memoryTraceIndex } from './memory-trace-index.js';
import type { RunMemory, StateStore } from './state-store.js';

/**
 * Options of {@link createMemoryStore}.
 *
 * @example
 * const store = createMemoryStore({ clock: () => new Date('2026-01-01T00:00:00Z') });
 */
export interface MemoryStoreOptions {
  /** The time seen keys and leases expire by (default: the system clock); a test passes a fake one. */
  clock?: () => Date;
}

/**
 * A store that keeps everything in this process and writes nothing to disk: the default of
 * `createAgent`. Memory and plans survive from one run to the next of the same agent (same
 * session), not a restart; paused runs, approval requests, seen keys, leases and the trace index
 * are shared by whoever holds the store (an agent and its approval gate, say). It keeps no usage
 * lines.
 *
 * @example
 * const store = createMemoryStore();
 * const agent = createAgent({ provider, store });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): StateStore {
  const clock = options.clock ?? (() => new Date());
  const memories = new Map<string, RunMemory>();
  const plans = new Map<string, PlanStore>();
  return {
    async saveSession(session) {
      validateSessionKey(session.key);
    },
    memory(session) {
      const key = validateSessionKey(session.key);
      let memory = memories.get(key);
      if (!memory) {
        memory = memoryRunMemory();
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
    runStates: new MemoryCheckpointStore(),
    approvals: new MemoryApprovalStore(),
    seen: memorySeenKeys(clock),
    leases: memoryLeases(clock),
    traces: memoryTraceIndex(),
    async close() {},
  };
}
