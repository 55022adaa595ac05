import type { StateStore } from '@tiny-claw/core';
import { PlanFileStore, type SessionMeta } from '@tiny-claw/core/store';
import { validateSessionKey } from '@tiny-claw/core/utils';
import type { MigrationResult } from './migrate.js';
import { SCHEMA_VERSION } from './migrations.js';
import { PgApprovalStore } from './pg-approval-store.js';
import { PgCheckpointStore } from './pg-checkpoint-store.js';
import { pgLeases } from './pg-leases.js';
import { pgPlanFiles } from './pg-plan-files.js';
import { pgRunMemory } from './pg-run-memory.js';
import { pgSeenKeys } from './pg-seen-keys.js';
import { type PgTraceIndex, pgTraceIndex } from './pg-trace-index.js';
import { PostgresDb } from './postgres-db.js';
import { maskPostgresUrl } from './postgres-url.js';
import { checkStoreOptions, type PostgresStoreOptions } from './store-options.js';

/**
 * The state store in PostgreSQL: a `StateStore` with the traces themselves and its schema's
 * upkeep.
 *
 * @example
 * const store: PostgresStore = createPostgresStore({ url: process.env.DATABASE_URL! });
 * console.log((await store.migrate()).version);
 */
export interface PostgresStore extends StateStore {
  /** The trace index, which also keeps each trace's JSON. */
  readonly traces: PgTraceIndex;
  /** The URL with its password and query values masked, safe to show. */
  readonly shownUrl: string;
  /**
   * Create or update the tables now (under an advisory lock; each migration once, in its own
   * transaction) and tell the schema version.
   *
   * @throws StateError when the database cannot be reached or a migration fails.
   */
  migrate(): Promise<MigrationResult>;
  /**
   * The schema version recorded in the database (0 when the tables were never created); it also
   * proves the database is reachable.
   *
   * @throws StateError when the database cannot be reached.
   */
  schemaVersion(): Promise<number>;
}

/**
 * A state store in PostgreSQL, so several processes — CLI runs, server replicas — share one
 * truth: session records, memory (the last 200 lines per session), plan files, approval requests
 * with their one-time claims, paused runs' states, seen keys, leases and traces (their JSON too),
 * in tables of one schema (`tiny_claw` by default). The tables are created or migrated on first
 * use (pass `migrate: false` to leave that to `migrate()`). Connections come from a pool of
 * `poolSize` (default 10), opened on first use; `close()` ends them. Usage lines are not kept
 * (`usage` is absent). Nothing is read from the environment: the caller passes the URL.
 *
 * @throws ConfigurationError for a URL that is not `postgres://` or `postgresql://`, a pool size
 * below 2 or a bad schema name.
 *
 * @example
 * import { createAgent } from '@tiny-claw/core';
 * import { createPostgresStore } from '@tiny-claw/store-postgres';
 * const store = createPostgresStore({ url: 'postgres://claw@db.internal/claw?sslmode=require' });
 * const agent = createAgent({ provider, store });
 */
export function createPostgresStore(options: PostgresStoreOptions): PostgresStore {
  const checked = checkStoreOptions(options);
  const clock = options.clock ?? (() => new Date());
  const logger = options.logger;
  const db = new PostgresDb(checked, (error) =>
    logger?.warn(`An idle PostgreSQL connection failed: ${db.failure(error).message}`),
  );
  // Plan changes of this store run one after another, so one connection at most waits on a lock.
  let planQueue: Promise<unknown> = Promise.resolve();
  const serialize = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = planQueue.then(fn, fn);
    planQueue = next.catch(() => {});
    return next;
  };
  return {
    shownUrl: maskPostgresUrl(checked.url),
    async saveSession(session) {
      const key = validateSessionKey(session.key);
      const now = clock().toISOString();
      const meta: SessionMeta = {
        schemaVersion: 1,
        ...session,
        key,
        createdAt: now,
        updatedAt: now,
      };
      await db.query(
        `INSERT INTO ${db.table('sessions')} AS s (key, meta) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET meta = EXCLUDED.meta || jsonb_build_object('createdAt', s.meta -> 'createdAt')`,
        [key, meta],
      );
    },
    memory: (session) => pgRunMemory(db, session.key),
    plans: (session) => new PlanFileStore(pgPlanFiles(db, session.key, serialize)),
    runStates: new PgCheckpointStore(db),
    approvals: new PgApprovalStore(db),
    seen: pgSeenKeys(db, clock),
    leases: pgLeases(db, clock),
    traces: pgTraceIndex(db),
    migrate: () => db.migrate(),
    schemaVersion: () => db.version(),
    close: () => db.close(),
  };
}

export { SCHEMA_VERSION };
