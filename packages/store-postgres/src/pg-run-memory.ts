import type { RunMemory } from '@tiny-claw/core';
import { MEMORY_MAX_LINES, memoryValue } from '@tiny-claw/core/store';
import { validateSessionKey } from '@tiny-claw/core/utils';
import type { PostgresDb } from './postgres-db.js';

/**
 * The memory of one session in the `memory_lines` table, held to the shared rules: each value
 * redacted and capped before it is kept, and past the last {@link MEMORY_MAX_LINES} lines the
 * oldest are deleted in the same transaction that adds the new ones.
 *
 * @example
 * await pgRunMemory(db, session.key).append([{ key: 'last_prompt', value: 'hi' }]);
 */
export function pgRunMemory(db: PostgresDb, sessionKey: string): RunMemory {
  const key = validateSessionKey(sessionKey);
  const table = db.table('memory_lines');
  return {
    async append(entries) {
      const lines = entries.map((e) => `${memoryValue(e.key)}: ${memoryValue(e.value)}`);
      if (lines.length === 0) return;
      await db.withClient(async (client) => {
        await client.query('BEGIN');
        try {
          await client.query(
            `INSERT INTO ${table} (session_key, line) SELECT $1, t.line FROM unnest($2::text[]) WITH ORDINALITY AS t(line, n) ORDER BY t.n`,
            [key, lines],
          );
          await client.query(
            `DELETE FROM ${table} WHERE session_key = $1 AND seq < (
               SELECT seq FROM ${table} WHERE session_key = $1 ORDER BY seq DESC OFFSET $2 LIMIT 1
             )`,
            [key, MEMORY_MAX_LINES - 1],
          );
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        }
      });
    },
    async readRecent(limit = 5) {
      if (!(limit >= 1)) return [];
      const { rows } = await db.query<{ line: string }>(
        `SELECT line FROM (SELECT seq, line FROM ${table} WHERE session_key = $1 ORDER BY seq DESC LIMIT $2) recent ORDER BY seq`,
        [key, Math.floor(limit)],
      );
      return rows.map((row) => row.line);
    },
  };
}
