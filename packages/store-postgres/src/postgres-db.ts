import { StateError, TinyClawError } from '@tiny-claw/core';
import pg from 'pg';
import { type MigrationResult, migrateSchema, SCHEMA_VERSION, schemaVersion } from './migrate.js';
import { maskPostgresUrl } from './postgres-url.js';
import { quoteIdentifier } from './sql.js';
import type { CheckedOptions } from './store-options.js';

/** Connection failures that mean the server could not be reached (not a query's own fault). */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ECONNRESET',
]);

/**
 * The store's connection pool and what every part of the store queries through: table names
 * qualified by the store's schema, the schema made ready (migrated, or checked) before the first
 * query, and failures turned into `StateError`s that name the database with its password masked.
 *
 * @example
 * const db = new PostgresDb(checkStoreOptions({ url }));
 * const { rows } = await db.query(`SELECT 1 FROM ${db.table('leases')}`);
 */
export class PostgresDb {
  readonly pool: pg.Pool;
  readonly #options: CheckedOptions;
  readonly #shownUrl: string;
  #ready: Promise<void> | undefined;
  #closed: Promise<void> | undefined;

  constructor(options: CheckedOptions, onIdleError: (error: Error) => void = () => {}) {
    this.#options = options;
    this.#shownUrl = maskPostgresUrl(options.url);
    this.pool = new pg.Pool({ connectionString: options.url, max: options.poolSize });
    // An idle connection that breaks (the server restarted) must not crash the process.
    this.pool.on('error', onIdleError);
  }

  /** `"schema"."name"`. */
  table(name: string): string {
    return `${quoteIdentifier(this.#options.schema)}.${quoteIdentifier(name)}`;
  }

  /** Run one statement once the schema is ready. */
  async query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    await this.ready();
    try {
      return await this.pool.query<R>(text, values);
    } catch (error) {
      throw this.failure(error);
    }
  }

  /**
   * Run `fn` with one connection of its own, released afterwards (a transaction, a session
   * lock). The schema is made ready first.
   */
  async withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    await this.ready();
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.failure(error);
    }
    try {
      return await fn(client);
    } catch (error) {
      throw this.failure(error);
    } finally {
      client.release();
    }
  }

  /** Migrate the schema (under the advisory lock) and report the version. */
  async migrate(): Promise<MigrationResult> {
    let client: pg.PoolClient | undefined;
    try {
      client = await this.pool.connect();
      return await migrateSchema(client, this.#options.schema);
    } catch (error) {
      throw this.failure(error);
    } finally {
      client?.release();
    }
  }

  /** The schema version recorded in the database (0 before the first migration). */
  async version(): Promise<number> {
    try {
      return await schemaVersion(this.pool, this.#options.schema);
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** Once per store: migrate, or (with `migrate: false`) check the schema is new enough. */
  ready(): Promise<void> {
    this.#ready ??= this.#prepare();
    // A failed preparation (the database was down) is tried again by the next call.
    this.#ready.catch(() => {
      this.#ready = undefined;
    });
    return this.#ready;
  }

  async #prepare(): Promise<void> {
    if (this.#options.migrate) {
      await this.migrate();
      return;
    }
    const version = await this.version();
    if (version < SCHEMA_VERSION) {
      throw new StateError(
        `The PostgreSQL state store at ${this.#shownUrl} has schema version ${version}, older than the ${SCHEMA_VERSION} this version needs: run \`tiny-claw state migrate\` (or the store's migrate()).`,
      );
    }
  }

  /** Close every connection (once; a second call changes nothing); queries after this fail. */
  close(): Promise<void> {
    this.#closed ??= this.pool.end();
    return this.#closed;
  }

  /** A failure of the database as a StateError naming it (tiny-claw's own errors pass through). */
  failure(error: unknown): Error {
    if (TinyClawError.isInstance(error)) return error;
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : String(error);
    const advice =
      typeof code === 'string' && UNREACHABLE_CODES.has(code)
        ? ' Check that the server is running and that the URL names the right host and port.'
        : code === '28P01' || code === '28000'
          ? ' Check the user name and password in the URL.'
          : code === '3D000'
            ? ' Create the database, or name an existing one in the URL.'
            : '';
    return new StateError(
      `PostgreSQL state store ${this.#shownUrl} failed: ${message.replaceAll(this.#options.url, this.#shownUrl)}.${advice}`,
      { cause: error },
    );
  }
}
