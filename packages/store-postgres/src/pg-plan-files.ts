import type { PlanFileAccess, PlanFileName } from '@tiny-claw/core/store';
import { validateSessionKey } from '@tiny-claw/core/utils';
import type { PostgresDb } from './postgres-db.js';

/**
 * The two plan texts of one session (PLAN.md and TODO.md) as rows of `plan_files`, for core's
 * `PlanFileStore`. A change runs alone across every process: within this process one at a time,
 * and across processes under a PostgreSQL advisory lock named after the session, held on a
 * connection of its own while the change reads and writes through the pool.
 *
 * @example
 * const plans = new PlanFileStore(pgPlanFiles(db, session.key, serialize));
 */
export function pgPlanFiles(
  db: PostgresDb,
  sessionKey: string,
  serialize: <T>(fn: () => Promise<T>) => Promise<T>,
): PlanFileAccess {
  const key = validateSessionKey(sessionKey);
  const table = db.table('plan_files');
  return {
    dir: `postgres:${key}/plan`,
    async read(name: PlanFileName) {
      const { rows } = await db.query<{ body: string }>(
        `SELECT body FROM ${table} WHERE session_key = $1 AND name = $2`,
        [key, name],
      );
      return rows[0]?.body;
    },
    async write(name: PlanFileName, text: string) {
      await db.query(
        `INSERT INTO ${table} (session_key, name, body) VALUES ($1, $2, $3)
         ON CONFLICT (session_key, name) DO UPDATE SET body = EXCLUDED.body`,
        [key, name, text],
      );
    },
    async remove(name: PlanFileName) {
      const result = await db.query(`DELETE FROM ${table} WHERE session_key = $1 AND name = $2`, [
        key,
        name,
      ]);
      return (result.rowCount ?? 0) > 0;
    },
    exclusive: (fn) =>
      serialize(() =>
        db.withClient(async (client) => {
          const lock = `tiny-claw:plan:${key}`;
          await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lock]);
          try {
            return await fn();
          } finally {
            await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lock]);
          }
        }),
      ),
    async cleanUp() {},
  };
}
