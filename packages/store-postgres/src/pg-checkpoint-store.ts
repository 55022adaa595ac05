import { type CheckpointRecord, type CheckpointStore, StateError } from '@tiny-claw/core';
import { checkpointRecordSchema, checkRecordId } from '@tiny-claw/core/store';
import { validateSessionKey } from '@tiny-claw/core/utils';
import type { PostgresDb } from './postgres-db.js';

/**
 * Paused runs' states in the `checkpoints` table, one JSON record per row: saved with one
 * statement (so a failure leaves the old state or the new one), validated on the way in and out.
 *
 * @example
 * await new PgCheckpointStore(db).save(checkpoint);
 */
export class PgCheckpointStore implements CheckpointStore {
  readonly #db: PostgresDb;

  constructor(db: PostgresDb) {
    this.#db = db;
  }

  async save(record: CheckpointRecord): Promise<void> {
    const checked = checkpointRecordSchema.parse(record);
    validateSessionKey(checked.sessionKey);
    await this.#db.query(
      `INSERT INTO ${this.#db.table('checkpoints')} (session_key, id, record) VALUES ($1, $2, $3)
       ON CONFLICT (session_key, id) DO UPDATE SET record = EXCLUDED.record`,
      [checked.sessionKey, checked.id, checked],
    );
  }

  async read(sessionKey: string, id: string): Promise<CheckpointRecord | undefined> {
    const [key, checkedId] = slot(sessionKey, id);
    const { rows } = await this.#db.query<{ record: unknown }>(
      `SELECT record FROM ${this.#db.table('checkpoints')} WHERE session_key = $1 AND id = $2`,
      [key, checkedId],
    );
    if (rows[0] === undefined) return undefined;
    const parsed = checkpointRecordSchema.safeParse(rows[0].record);
    if (parsed.success) return parsed.data;
    throw new StateError(
      `The paused run ${checkedId} in the PostgreSQL state store does not match its schema (${parsed.error.issues[0]?.message ?? 'unreadable'}); it was left as it is — fix or delete the row.`,
    );
  }

  async delete(sessionKey: string, id: string): Promise<void> {
    const [key, checkedId] = slot(sessionKey, id);
    await this.#db.query(
      `DELETE FROM ${this.#db.table('checkpoints')} WHERE session_key = $1 AND id = $2`,
      [key, checkedId],
    );
  }
}

function slot(sessionKey: string, id: string): [string, string] {
  return [validateSessionKey(sessionKey), checkRecordId(id, 'checkpoint')];
}
