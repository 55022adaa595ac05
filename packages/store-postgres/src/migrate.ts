import type pg from 'pg';
import { MIGRATIONS, type Migration, SCHEMA_VERSION } from './migrations.js';
import { quoteIdentifier } from './sql.js';

/**
 * What a migration run did.
 *
 * @example
 * const { version, applied } = await store.migrate(); // { version: 1, applied: [1] } the first time
 */
export interface MigrationResult {
  /** The schema version the database is at now. */
  version: number;
  /** The versions this run applied, oldest first (none when the schema was up to date). */
  applied: number[];
}

/**
 * Bring the store's schema up to date: create the schema and its `schema_migrations` table when
 * missing, then apply each migration not yet recorded there, each in its own transaction that
 * also records it. The whole run holds a PostgreSQL advisory lock named after the schema, so two
 * processes starting together take turns: the second finds the work done.
 *
 * @example
 * const { version } = await migrateSchema(client, 'tiny_claw');
 */
export async function migrateSchema(
  client: pg.ClientBase,
  schema: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationResult> {
  const quoted = quoteIdentifier(schema);
  const lock = `tiny-claw:migrate:${schema}`;
  await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lock]);
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${quoted}.schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = new Set(
      (
        await client.query<{ version: number }>(`SELECT version FROM ${quoted}.schema_migrations`)
      ).rows.map((row) => row.version),
    );
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql.replaceAll('{schema}', quoted));
        await client.query(
          `INSERT INTO ${quoted}.schema_migrations (version, name) VALUES ($1, $2)`,
          [migration.version, migration.name],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
      applied.push(migration.version);
    }
    return { version: Math.max(0, ...done, ...applied), applied };
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lock]);
  }
}

/**
 * The schema version recorded in the database: 0 when the store's tables were never created.
 *
 * @example
 * if ((await schemaVersion(client, 'tiny_claw')) < SCHEMA_VERSION) await migrateSchema(client, 'tiny_claw');
 */
export async function schemaVersion(
  client: pg.ClientBase | pg.Pool,
  schema: string,
): Promise<number> {
  const table = await client.query<{ present: boolean }>(
    'SELECT to_regclass($1) IS NOT NULL AS present',
    [`${quoteIdentifier(schema)}.schema_migrations`],
  );
  if (!table.rows[0]?.present) return 0;
  const result = await client.query<{ version: number | null }>(
    `SELECT max(version) AS version FROM ${quoteIdentifier(schema)}.schema_migrations`,
  );
  return result.rows[0]?.version ?? 0;
}

export { SCHEMA_VERSION };
