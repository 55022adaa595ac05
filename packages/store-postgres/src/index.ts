/**
 * @tiny-claw/store-postgres — the tiny-claw state store in PostgreSQL, for several processes or
 * server replicas sharing one truth: `createPostgresStore({ url })` is a `StateStore` to pass to
 * `createAgent` (and to an approval gate), with exactly-once approval claims, seen keys and leases
 * across processes, and the traces kept in the database. Its tables are created and migrated
 * automatically (versioned, under an advisory lock).
 *
 * @example
 * import { createAgent } from '@tiny-claw/core';
 * import { createPostgresStore } from '@tiny-claw/store-postgres';
 * const store = createPostgresStore({ url: 'postgres://claw@localhost:5432/claw' });
 * const agent = createAgent({ provider, store });
 *
 * @module
 */

export type { MigrationResult } from './migrate.js';
export type { PgTraceIndex } from './pg-trace-index.js';
export { TRACE_MAX_BYTES } from './pg-trace-index.js';
export { createPostgresStore, type PostgresStore, SCHEMA_VERSION } from './postgres-store.js';
export { maskPostgresUrl } from './postgres-url.js';
export {
  DEFAULT_POOL_SIZE,
  DEFAULT_SCHEMA,
  type PostgresStoreOptions,
} from './store-options.js';
