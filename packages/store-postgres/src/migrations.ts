/**
 * One change of the store's tables. Each is applied once, in its own transaction, and recorded in
 * the `schema_migrations` table; a published migration is never edited — a change is a new one.
 *
 * @example
 * const latest = MIGRATIONS.at(-1)?.version;
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** The statements, with `{schema}` standing for the quoted schema name. */
  readonly sql: string;
}

/**
 * Every migration, oldest first. Times of seen keys and leases are milliseconds since the epoch
 * (`bigint`), compared with the store's clock rather than the database's, so every process agrees
 * on expiry through the same numbers it wrote.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'state tables',
    sql: `
CREATE TABLE {schema}.sessions (
  key text PRIMARY KEY,
  meta jsonb NOT NULL
);
CREATE TABLE {schema}.memory_lines (
  seq bigserial PRIMARY KEY,
  session_key text NOT NULL,
  line text NOT NULL
);
CREATE INDEX memory_lines_session ON {schema}.memory_lines (session_key, seq);
CREATE TABLE {schema}.plan_files (
  session_key text NOT NULL,
  name text NOT NULL,
  body text NOT NULL,
  PRIMARY KEY (session_key, name)
);
CREATE TABLE {schema}.approvals (
  session_key text NOT NULL,
  id text NOT NULL,
  created_at text NOT NULL,
  record jsonb NOT NULL,
  PRIMARY KEY (session_key, id)
);
CREATE INDEX approvals_id ON {schema}.approvals (id);
CREATE TABLE {schema}.approval_claims (
  session_key text NOT NULL,
  id text NOT NULL,
  ticket jsonb NOT NULL,
  PRIMARY KEY (session_key, id)
);
CREATE TABLE {schema}.checkpoints (
  session_key text NOT NULL,
  id text NOT NULL,
  record jsonb NOT NULL,
  PRIMARY KEY (session_key, id)
);
CREATE TABLE {schema}.seen_keys (
  key text PRIMARY KEY,
  expires_at bigint NOT NULL
);
CREATE INDEX seen_keys_expiry ON {schema}.seen_keys (expires_at);
CREATE TABLE {schema}.leases (
  key text PRIMARY KEY,
  holder text NOT NULL,
  token uuid NOT NULL,
  expires_at bigint NOT NULL
);
CREATE TABLE {schema}.traces (
  trace_id text PRIMARY KEY,
  session_key text NOT NULL,
  path text NOT NULL,
  trace jsonb
);
CREATE INDEX traces_session ON {schema}.traces (session_key COLLATE "C", trace_id COLLATE "C");
`,
  },
];

/** The schema version this code works with: the newest migration's. */
export const SCHEMA_VERSION: number = MIGRATIONS.at(-1)?.version ?? 0;
