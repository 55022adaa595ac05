import { ConfigurationError, type Logger } from '@tiny-claw/core';
import { z } from 'zod';
import { maskPostgresUrl } from './postgres-url.js';

/** How many connections the pool opens at most unless told otherwise. */
export const DEFAULT_POOL_SIZE = 10;

/** The schema (namespace) the store's tables live in unless told otherwise. */
export const DEFAULT_SCHEMA = 'tiny_claw';

/**
 * Options of `createPostgresStore`.
 *
 * @example
 * const options: PostgresStoreOptions = { url: 'postgres://claw@db.internal/claw?sslmode=require', poolSize: 20 };
 */
export interface PostgresStoreOptions {
  /**
   * `postgres://` or `postgresql://` connection URL. TLS is configured in it the way `pg` reads
   * it (`sslmode=require|verify-full`, `sslrootcert=…`, …).
   */
  url: string;
  /** Most connections open at once (default 10, at least 2: a plan change holds one while it reads and writes through another). */
  poolSize?: number;
  /** Schema (namespace) of the tables: lower-case letters, digits and `_` (default `tiny_claw`). */
  schema?: string;
  /**
   * Create or migrate the tables before the first use (default true). With false the store
   * refuses to work on a schema older than it needs; run `migrate()` (or `tiny-claw state migrate`).
   */
  migrate?: boolean;
  /** The time seen keys and leases expire by (default: the system clock); a test passes a fake one. */
  clock?: () => Date;
  /** Where failures of idle connections are reported (default: dropped). */
  logger?: Logger;
}

const optionsSchema = z.object({
  url: z.string().refine((url) => /^postgres(ql)?:\/\//i.test(url.trim()), {
    error: 'expected a postgres:// or postgresql:// URL such as postgres://user@host:5432/db',
  }),
  poolSize: z
    .number()
    .int({ error: 'expected a whole number from 2 to 1000' })
    .min(2, { error: 'expected a whole number from 2 to 1000' })
    .max(1000, { error: 'expected a whole number from 2 to 1000' })
    .default(DEFAULT_POOL_SIZE),
  schema: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, {
      error: 'expected 1 to 63 lower-case letters, digits or "_", not starting with a digit',
    })
    .default(DEFAULT_SCHEMA),
  migrate: z.boolean().default(true),
});

/**
 * The options after checking: defaults filled in.
 *
 * @example
 * const checked: CheckedOptions = checkStoreOptions({ url });
 */
export type CheckedOptions = z.infer<typeof optionsSchema>;

/**
 * Check the options of `createPostgresStore` and fill in the defaults.
 *
 * @throws ConfigurationError naming each wrong option (a URL shown with its password masked).
 *
 * @example
 * checkStoreOptions({ url: 'mysql://x' }); // throws: expected a postgres:// or postgresql:// URL
 */
export function checkStoreOptions(options: PostgresStoreOptions): CheckedOptions {
  const parsed = optionsSchema.safeParse({
    url: options.url,
    poolSize: options.poolSize,
    schema: options.schema,
    migrate: options.migrate,
  });
  if (parsed.success) return { ...parsed.data, url: parsed.data.url.trim() };
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path.join('.') || 'options';
    const value =
      field === 'url' && typeof options.url === 'string' ? maskPostgresUrl(options.url) : undefined;
    return `${field}${value === undefined ? '' : ` ${JSON.stringify(value)}`}: ${issue.message}`;
  });
  throw new ConfigurationError(`Invalid PostgreSQL store options: ${problems.join('; ')}.`);
}
