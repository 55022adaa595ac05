import {
  type ApprovalRecord,
  type ApprovalStore,
  type ClaimTicket,
  type ListApprovalsOptions,
  StateError,
} from '@tiny-claw/core';
import { approvalRecordSchema, checkRecordId, claimTicketSchema } from '@tiny-claw/core/store';
import { validateSessionKey } from '@tiny-claw/core/utils';
import type { PostgresDb } from './postgres-db.js';

/** The SQLSTATE of a unique violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * Approval requests in the `approvals` table (one JSON record per row) and their one-time claims
 * in `approval_claims`: a claim is one INSERT that either adds the session's and id's row or
 * finds it there, so of any number of processes claiming at once exactly one wins, and a claim is
 * never removed. Records are validated on the way in and on the way out.
 *
 * @example
 * const approvals = new PgApprovalStore(db);
 * if (!(await approvals.claim(key, id, ticket))) console.log('already decided');
 */
export class PgApprovalStore implements ApprovalStore {
  readonly #db: PostgresDb;

  constructor(db: PostgresDb) {
    this.#db = db;
  }

  async create(record: ApprovalRecord): Promise<void> {
    const checked = approvalRecordSchema.parse(record);
    validateSessionKey(checked.sessionKey);
    try {
      await this.#db.query(
        `INSERT INTO ${this.#db.table('approvals')} (session_key, id, created_at, record) VALUES ($1, $2, $3, $4)`,
        [checked.sessionKey, checked.id, checked.createdAt, checked],
      );
    } catch (error) {
      if ((error as { cause?: { code?: unknown } }).cause?.code === UNIQUE_VIOLATION) {
        throw new StateError(`approval ${checked.id} already exists`, { cause: error });
      }
      throw error;
    }
  }

  async read(sessionKey: string, id: string): Promise<ApprovalRecord | undefined> {
    const [key, checkedId] = slot(sessionKey, id);
    const { rows } = await this.#db.query<{ record: unknown }>(
      `SELECT record FROM ${this.#db.table('approvals')} WHERE session_key = $1 AND id = $2`,
      [key, checkedId],
    );
    return rows[0] === undefined ? undefined : this.#parse(rows[0].record, checkedId);
  }

  async write(record: ApprovalRecord): Promise<void> {
    const checked = approvalRecordSchema.parse(record);
    validateSessionKey(checked.sessionKey);
    await this.#db.query(
      `INSERT INTO ${this.#db.table('approvals')} (session_key, id, created_at, record) VALUES ($1, $2, $3, $4)
       ON CONFLICT (session_key, id) DO UPDATE SET created_at = EXCLUDED.created_at, record = EXCLUDED.record`,
      [checked.sessionKey, checked.id, checked.createdAt, checked],
    );
  }

  async locate(id: string): Promise<string | undefined> {
    const checkedId = checkRecordId(id);
    const { rows } = await this.#db.query<{ session_key: string }>(
      `SELECT session_key FROM ${this.#db.table('approvals')} WHERE id = $1 ORDER BY session_key COLLATE "C" LIMIT 1`,
      [checkedId],
    );
    return rows[0]?.session_key;
  }

  async list(options: ListApprovalsOptions = {}): Promise<ApprovalRecord[]> {
    const wanted =
      options.sessionKey === undefined ? undefined : validateSessionKey(options.sessionKey);
    const { rows } = await this.#db.query<{ id: string; record: unknown }>(
      `SELECT id, record FROM ${this.#db.table('approvals')}
       WHERE $1::text IS NULL OR session_key = $1
       ORDER BY created_at COLLATE "C", id COLLATE "C"`,
      [wanted ?? null],
    );
    const records: ApprovalRecord[] = [];
    let firstProblem: StateError | undefined;
    for (const row of rows) {
      try {
        records.push(this.#parse(row.record, row.id));
      } catch (error) {
        const problem = error as StateError;
        if (options.onUnreadable) options.onUnreadable(problem);
        else firstProblem ??= problem;
      }
    }
    if (firstProblem) throw firstProblem;
    return records;
  }

  async claim(sessionKey: string, id: string, ticket: ClaimTicket): Promise<boolean> {
    const [key, checkedId] = slot(sessionKey, id);
    const checked = claimTicketSchema.parse(ticket);
    const result = await this.#db.query(
      `INSERT INTO ${this.#db.table('approval_claims')} (session_key, id, ticket) VALUES ($1, $2, $3)
       ON CONFLICT (session_key, id) DO NOTHING`,
      [key, checkedId, checked],
    );
    return result.rowCount === 1;
  }

  async ticket(sessionKey: string, id: string): Promise<ClaimTicket | undefined> {
    const [key, checkedId] = slot(sessionKey, id);
    const { rows } = await this.#db.query<{ ticket: unknown }>(
      `SELECT ticket FROM ${this.#db.table('approval_claims')} WHERE session_key = $1 AND id = $2`,
      [key, checkedId],
    );
    const parsed = claimTicketSchema.safeParse(rows[0]?.ticket);
    return parsed.success ? parsed.data : undefined;
  }

  #parse(value: unknown, id: string): ApprovalRecord {
    const parsed = approvalRecordSchema.safeParse(value);
    if (parsed.success) return parsed.data;
    throw new StateError(
      `The approval record ${id} in the PostgreSQL state store does not match its schema (${parsed.error.issues[0]?.message ?? 'unreadable'}); it was left as it is — fix or delete the row.`,
    );
  }
}

function slot(sessionKey: string, id: string): [string, string] {
  return [validateSessionKey(sessionKey), checkRecordId(id)];
}
