import { ConfigurationError, type Logger, StateError, type StateStore } from '@tiny-claw/core';
import { createFileStore } from '@tiny-claw/workspace';
import { redactUrlCredentials } from '../settings/mask-secret.js';
import type { Settings } from '../settings/settings-schema.js';

/**
 * Where the application keeps its state: `files` under the state dir, or `postgres` at a URL
 * (shown with its password and query values masked).
 *
 * @example
 * const backend: StateBackend = { backend: 'postgres', url: 'postgres://claw:***@db/claw' };
 */
export type StateBackend = { backend: 'files'; dir: string } | { backend: 'postgres'; url: string };

/**
 * The state backend as `tiny-claw health` shows it, with whether it can be used right now.
 *
 * @example
 * const state: StateHealth = { backend: 'files', dir: '/home/me/.tiny-claw', reachable: true };
 */
export type StateHealth = StateBackend & {
  reachable: boolean;
  /** The PostgreSQL schema version (0 before the first migration), when reachable. */
  schemaVersion?: number;
  /** Why it cannot be used, when it is not reachable. */
  problem?: string;
};

/**
 * What `tiny-claw state migrate` did.
 *
 * @example
 * const result: StateMigration = { url: 'postgres://claw:***@db/claw', version: 1, applied: [1] };
 */
export interface StateMigration {
  /** The database, password masked. */
  url: string;
  /** The schema version now. */
  version: number;
  /** The migrations this run applied (none when the schema was up to date). */
  applied: number[];
}

/**
 * Which backend the settings select: PostgreSQL when `TINY_CLAW_STATE_URL` is set, else files
 * under `TINY_CLAW_STATE_DIR`.
 *
 * @example
 * stateBackend(settings); // { backend: 'files', dir: '/home/me/.tiny-claw' }
 */
export function stateBackend(settings: Settings): StateBackend {
  return settings.stateUrl === undefined
    ? { backend: 'files', dir: settings.stateDir }
    : { backend: 'postgres', url: maskedStateUrl(settings.stateUrl) };
}

/**
 * The application's state store: the file store under the state dir, or — when
 * `TINY_CLAW_STATE_URL` is set — the PostgreSQL store (its package is imported only then), with
 * `TINY_CLAW_STATE_POOL_SIZE` connections at most, migrating its tables on first use.
 *
 * @example
 * const store = await createRuntimeStore(settings, logger);
 */
export async function createRuntimeStore(settings: Settings, logger: Logger): Promise<StateStore> {
  if (settings.stateUrl === undefined) return createFileStore(settings.stateDir, { logger });
  const { createPostgresStore } = await import('@tiny-claw/store-postgres');
  return createPostgresStore({ url: settings.stateUrl, poolSize: settings.statePoolSize, logger });
}

/**
 * Whether the state backend can be used: for PostgreSQL, one query (the schema version); for
 * files, always (the state dir is created when first written).
 *
 * @example
 * const state = await checkStateBackend(settings); // { backend: 'postgres', url, reachable: false, problem }
 */
export async function checkStateBackend(settings: Settings): Promise<StateHealth> {
  const backend = stateBackend(settings);
  if (settings.stateUrl === undefined) return { ...backend, reachable: true };
  const { createPostgresStore } = await import('@tiny-claw/store-postgres');
  const store = createPostgresStore({ url: settings.stateUrl, poolSize: 2, migrate: false });
  try {
    return { ...backend, reachable: true, schemaVersion: await store.schemaVersion() };
  } catch (error) {
    return { ...backend, reachable: false, problem: (error as Error).message };
  } finally {
    await store.close().catch(() => {});
  }
}

/**
 * Create or update the PostgreSQL state store's tables now (`tiny-claw state migrate`).
 *
 * @throws ConfigurationError when `TINY_CLAW_STATE_URL` is unset, or when the database cannot be
 * reached or refuses the migration (the message says which and how to fix it).
 *
 * @example
 * const { version } = await migrateStateStore(settings);
 */
export async function migrateStateStore(settings: Settings): Promise<StateMigration> {
  if (settings.stateUrl === undefined) {
    throw new ConfigurationError(
      `TINY_CLAW_STATE_URL is not set, so state is kept in files under ${settings.stateDir} and there is nothing to migrate: set it to a postgres://user:password@host:5432/db URL to use the PostgreSQL state store.`,
    );
  }
  const { createPostgresStore } = await import('@tiny-claw/store-postgres');
  const store = createPostgresStore({ url: settings.stateUrl, poolSize: 2, migrate: false });
  try {
    const { version, applied } = await store.migrate();
    return { url: store.shownUrl, version, applied };
  } catch (error) {
    if (error instanceof StateError) {
      throw new ConfigurationError(
        `Cannot migrate the state store at TINY_CLAW_STATE_URL: ${error.message}`,
        { cause: error },
      );
    }
    throw error;
  } finally {
    await store.close().catch(() => {});
  }
}

/** The URL with the password and query values masked, the user kept. */
function maskedStateUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    for (const name of [...parsed.searchParams.keys()]) parsed.searchParams.set(name, '***');
    return parsed.toString();
  } catch {
    return redactUrlCredentials(url);
  }
}

/**
 * A trace kept in the PostgreSQL state store, for a process whose own state dir does not hold
 * the file (another replica wrote it): its session and its JSON as recorded, or undefined when
 * `TINY_CLAW_STATE_URL` is unset or no trace has this id. The store is opened for this one read.
 *
 * @throws StateError when the database cannot be reached or its schema was never migrated.
 *
 * @example
 * const stored = await readStoredTrace(settings, '5f0c2a9e'); // { sessionKey, trace } | undefined
 */
export async function readStoredTrace(
  settings: Settings,
  traceId: string,
): Promise<{ sessionKey: string; trace: unknown } | undefined> {
  if (settings.stateUrl === undefined) return undefined;
  const { createPostgresStore } = await import('@tiny-claw/store-postgres');
  const store = createPostgresStore({ url: settings.stateUrl, poolSize: 2, migrate: false });
  try {
    const entry = await store.traces.locate(traceId);
    if (entry === undefined) return undefined;
    const trace = await store.traces.read(traceId);
    return trace === undefined ? undefined : { sessionKey: entry.sessionKey, trace };
  } finally {
    await store.close().catch(() => {});
  }
}

/**
 * Every trace kept in the PostgreSQL state store (of one session, when given), in no particular
 * order: each with its session, the place its tracer wrote it (on whichever host) and its JSON as
 * recorded. Empty when `TINY_CLAW_STATE_URL` is unset. The store is opened for this one read.
 *
 * @throws StateError when the database cannot be reached or its schema was never migrated.
 *
 * @example
 * const stored = await listStoredTraces(settings, { sessionKey }); // [{ traceId, sessionKey, path, trace }]
 */
export async function listStoredTraces(
  settings: Settings,
  query: { sessionKey?: string } = {},
): Promise<Array<{ traceId: string; sessionKey: string; path: string; trace: unknown }>> {
  if (settings.stateUrl === undefined) return [];
  const { createPostgresStore } = await import('@tiny-claw/store-postgres');
  const store = createPostgresStore({ url: settings.stateUrl, poolSize: 2, migrate: false });
  try {
    const entries = await store.traces.list(
      query.sessionKey === undefined ? {} : { sessionKey: query.sessionKey },
    );
    const listed: Array<{ traceId: string; sessionKey: string; path: string; trace: unknown }> = [];
    for (const entry of entries) {
      const trace = await store.traces.read(entry.traceId);
      if (trace !== undefined) listed.push({ ...entry, trace });
    }
    return listed;
  } finally {
    await store.close().catch(() => {});
  }
}
