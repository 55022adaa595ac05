import { readFile, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { StateError, type TraceEntry, type TraceIndex } from '@tiny-claw/core';
import { checkTraceEntry, checkTraceId, traceEntrySchema } from '@tiny-claw/core/store';
import { validateSessionKey } from '@tiny-claw/core/utils';
import type { PostgresDb } from './postgres-db.js';

/** Largest trace file the store copies into the database, in bytes. */
export const TRACE_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The trace index of the PostgreSQL store, with the traces themselves: `read` gives back the JSON
 * of a recorded trace from any process sharing the database, wherever it was written.
 *
 * @example
 * const trace = await store.traces.read(traceId); // the trace JSON, or undefined
 */
export interface PgTraceIndex extends TraceIndex {
  /**
   * The trace `traceId` as it was recorded (its JSON), or undefined when none is.
   *
   * @throws ConfigurationError for an invalid id.
   */
  read(traceId: string): Promise<unknown>;
}

/**
 * Traces in the `traces` table: recording one reads the trace file its tracer wrote (`path`, an
 * absolute path to a JSON file of at most 32 MiB) and keeps its JSON in a `jsonb` column with the
 * entry, so every process sharing the database can list and read it. Recording an id again
 * replaces the row.
 *
 * @example
 * await pgTraceIndex(db).record({ traceId, sessionKey, path: '/state/sessions/…/traces/5f0c.json' });
 */
export function pgTraceIndex(db: PostgresDb): PgTraceIndex {
  const table = db.table('traces');
  return {
    async record(entry) {
      const checked = checkTraceEntry(entry);
      const trace = await readTrace(checked.path);
      await db.query(
        `INSERT INTO ${table} (trace_id, session_key, path, trace) VALUES ($1, $2, $3, $4)
         ON CONFLICT (trace_id) DO UPDATE SET session_key = EXCLUDED.session_key, path = EXCLUDED.path, trace = EXCLUDED.trace`,
        [checked.traceId, checked.sessionKey, checked.path, JSON.stringify(trace)],
      );
    },
    async locate(traceId) {
      const { rows } = await db.query<Row>(
        `SELECT trace_id, session_key, path FROM ${table} WHERE trace_id = $1`,
        [checkTraceId(traceId)],
      );
      return rows[0] === undefined ? undefined : entryOf(rows[0]);
    },
    async list(query = {}) {
      const wanted = query.sessionKey === undefined ? null : validateSessionKey(query.sessionKey);
      const { rows } = await db.query<Row>(
        `SELECT trace_id, session_key, path FROM ${table} WHERE $1::text IS NULL OR session_key = $1
         ORDER BY session_key COLLATE "C", trace_id COLLATE "C"`,
        [wanted],
      );
      return rows.map(entryOf);
    },
    async read(traceId) {
      const { rows } = await db.query<{ trace: unknown }>(
        `SELECT trace FROM ${table} WHERE trace_id = $1`,
        [checkTraceId(traceId)],
      );
      return rows[0]?.trace ?? undefined;
    },
  };
}

interface Row {
  trace_id: string;
  session_key: string;
  path: string;
}

function entryOf(row: Row): TraceEntry {
  return traceEntrySchema.parse({
    traceId: row.trace_id,
    sessionKey: row.session_key,
    path: row.path,
  });
}

/** The JSON of the trace file at `path`, or a StateError saying why it cannot be kept. */
async function readTrace(path: string): Promise<unknown> {
  const refuse = (why: string, cause?: unknown): StateError =>
    new StateError(`Cannot keep the trace ${path} in the PostgreSQL state store: ${why}.`, {
      cause,
    });
  if (!isAbsolute(path)) throw refuse('its path is not absolute');
  const info = await stat(path).catch((error: unknown) => {
    throw refuse('it cannot be read', error);
  });
  if (!info.isFile()) throw refuse('it is not a file');
  if (info.size > TRACE_MAX_BYTES) throw refuse(`it is larger than ${TRACE_MAX_BYTES} bytes`);
  const text = await readFile(path, 'utf8').catch((error: unknown) => {
    throw refuse('it cannot be read', error);
  });
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw refuse('it is not JSON', error);
  }
}
