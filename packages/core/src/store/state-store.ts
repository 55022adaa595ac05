import type { UsageRecorder } from '../observe/usage.js';
import type { PlanStore } from '../plan/plan-files.js';
import type { SessionRef } from '../session/session-ref.js';
import type { ApprovalStore, CheckpointStore } from './approval-store.js';
import type { LeaseStore } from './lease-store.js';
import type { SeenKeys } from './seen-keys.js';
import type { TraceIndex } from './trace-index.js';

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
 * Everything a run and its front ends keep between runs and between processes: session records,
 * session memory, plan files, usage lines, paused runs' states and their approval requests,
 * recently seen keys, leases and the index of traces.
 * `createMemoryStore()` (the default of `createAgent`) keeps it all in this process;
 * `createFileStore(dir)` from `@tiny-claw/workspace` keeps it under a state directory. Another
 * implementation (a database) passes the same contract tests (`stateStoreContract` in the
 * repository's testkit). Failures of the store itself are `StateError`s; arguments no store
 * accepts are `ConfigurationError`s.
 *
 * @example
 * const store = createMemoryStore();
 * const agent = createAgent({ provider, store });
 * await store.seen.remember('event:ev_1', 60_000); // true
 */
export interface StateStore {
  /** Receives one record per model call; absent keeps none. */
  readonly usage?: UsageRecorder | undefined;
  /**
   * Record that `session` is in use (keeping when it was first used).
   *
   * @throws ConfigurationError for an unsafe session key; StateError when it cannot be recorded.
   *
   * @example
   * await store.saveSession(await cliSession('/repo', 'default'));
   */
  saveSession(session: SessionRef): Promise<void>;
  /**
   * The memory of one session. Values are redacted with the shared secret rules and capped before
   * they are kept, and older lines are dropped: the last 200 are kept (a file may hold up to twice
   * as many between two compactions).
   *
   * @throws ConfigurationError for an unsafe session key (before anything is touched).
   *
   * @example
   * await store.memory(session).readRecent(5); // ['last_prompt: hi', 'last_response: hello']
   */
  memory(session: Pick<SessionRef, 'key'>): RunMemory;
  /**
   * The plan files (PLAN.md, TODO.md) of one session.
   *
   * @throws ConfigurationError for an unsafe session key (before anything is touched).
   *
   * @example
   * const snapshot = await store.plans(session).read(); // undefined until a plan is written
   */
  plans(session: Pick<SessionRef, 'key'>): PlanStore;
  /**
   * Paused runs' states, by session key and checkpoint id: what a decision continues from, kept
   * only while it can still be decided.
   *
   * @example
   * const checkpoint = await store.runStates.read(session.key, record.checkpointId);
   */
  readonly runStates: CheckpointStore;
  /**
   * Approval requests, with the one-time atomic claim that lets exactly one decision take effect.
   *
   * @example
   * const pending = (await store.approvals.list()).filter((r) => r.status === 'pending');
   */
  readonly approvals: ApprovalStore;
  /**
   * Recently seen keys with their own expiry: a front end's de-duplication of events.
   *
   * @example
   * if (!(await store.seen.remember(`event:${id}`, ttlMs))) return; // delivered before
   */
  readonly seen: SeenKeys;
  /**
   * One holder at a time per key, with expiry.
   *
   * @example
   * const lease = await store.leases.acquire(`chat:${chatId}`, replicaId, 30_000);
   */
  readonly leases: LeaseStore;
  /**
   * The index of the traces this store's runs wrote.
   *
   * @example
   * const entry = await store.traces.locate(traceId);
   */
  readonly traces: TraceIndex;
  /**
   * Finish the writes still under way (the file store writes seen keys behind its answers) and
   * let go of what the store holds open (a database's connections). Call it once, when the
   * process is done with the store.
   *
   * @example
   * process.once('SIGTERM', () => void store.close());
   */
  close(): Promise<void>;
}

/**
 * The two parts of a {@link StateStore} an approval gate works with: its requests and the paused
 * runs' states. Any state store is one.
 *
 * @example
 * const gate = createApprovalGate({ store: createMemoryStore(), assess });
 */
export type ApprovalStores = Pick<StateStore, 'approvals' | 'runStates'>;

/**
 * The store an agent keeps sessions, memory and plans in; the name before it held everything a
 * {@link StateStore} holds.
 *
 * @deprecated Use {@link StateStore}.
 *
 * @example
 * const store: AgentStore = createMemoryStore();
 */
export type AgentStore = StateStore;
