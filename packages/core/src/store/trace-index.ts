import { z } from 'zod';
import { ConfigurationError } from '../errors.js';
import { validateSessionKey } from '../session/session-key.js';

/**
 * What a trace id looks like: 1–128 letters, digits, `-` and `_` (one safe file name).
 *
 * @example
 * traceIdPattern.test('5f0c2a9e'); // true
 */
export const traceIdPattern = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Schema of a {@link TraceEntry}: a valid trace id and session key, and a non-empty path.
 *
 * @example
 * const entry = traceEntrySchema.parse({ traceId: '5f0c', sessionKey: 'cli-1a2b3c4d5e6f-default', path: '/state/…/5f0c.json' });
 */
export const traceEntrySchema = z.object({
  traceId: z.string().regex(traceIdPattern, {
    error: 'a trace id is 1 to 128 letters, digits, "-" or "_"',
  }),
  sessionKey: z.string().refine(isSessionKey, { error: 'not a valid session key' }),
  path: z.string().min(1),
});

/**
 * Where one run's trace was written: its id, its session and the place the tracer put it (a file
 * path, or whatever locates it for the tracer that wrote it).
 *
 * @example
 * const entry: TraceEntry = { traceId: result.traceId!, sessionKey: result.sessionKey, path: result.tracePath! };
 */
export type TraceEntry = z.infer<typeof traceEntrySchema>;

/**
 * Options of {@link TraceIndex.list}.
 *
 * @example
 * await traces.list({ sessionKey: session.key });
 */
export interface ListTracesQuery {
  /** Only this session's traces. */
  sessionKey?: string;
}

/**
 * The index of the traces a store's runs wrote, so a front end finds a trace by id without
 * knowing where the tracer put it. The agent records each trace its tracer writes to a place
 * (`tracePath`) when the run ends.
 *
 * @example
 * const entry = await store.traces.locate(result.traceId!);
 */
export interface TraceIndex {
  /**
   * Record where trace `traceId` of `sessionKey` was written. Recording an id again replaces
   * the entry.
   *
   * @throws ConfigurationError for an invalid id, session key or path; StateError when the store
   * cannot record it (the file store refuses a trace that is not where it looks for traces).
   *
   * @example
   * await traces.record({ traceId: '5f0c', sessionKey: session.key, path: '/state/sessions/…/traces/5f0c.json' });
   */
  record(entry: TraceEntry): Promise<void>;
  /**
   * The entry of trace `traceId` (an exact id), or undefined when none is recorded.
   *
   * @example
   * const entry = await traces.locate('5f0c'); // { traceId, sessionKey, path }
   */
  locate(traceId: string): Promise<TraceEntry | undefined>;
  /**
   * Every recorded trace, or one session's, ordered by session key and then trace id.
   *
   * @example
   * for (const entry of await traces.list({ sessionKey })) console.log(entry.traceId, entry.path);
   */
  list(query?: ListTracesQuery): Promise<TraceEntry[]>;
}

/**
 * Check an entry given to {@link TraceIndex.record} and return it (without unknown fields).
 *
 * @throws ConfigurationError naming what is wrong.
 *
 * @example
 * checkTraceEntry({ traceId: '../x', sessionKey: 'k', path: '/p' }); // throws
 */
export function checkTraceEntry(entry: unknown): TraceEntry {
  const parsed = traceEntrySchema.safeParse(entry);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.join('.') || '(entry)'}: ${issue.message}`)
    .join('; ');
  throw new ConfigurationError(`Invalid trace entry: ${problems}.`);
}

/**
 * Check a trace id given to {@link TraceIndex.locate} before it is used, and return it.
 *
 * @throws ConfigurationError for anything but 1–128 letters, digits, `-` and `_`.
 *
 * @example
 * checkTraceId('5f0c'); // '5f0c'
 */
export function checkTraceId(traceId: unknown): string {
  if (typeof traceId === 'string' && traceIdPattern.test(traceId)) return traceId;
  const shown =
    typeof traceId === 'string' ? JSON.stringify(traceId.slice(0, 140)) : String(traceId);
  throw new ConfigurationError(
    `Invalid trace id ${shown}: a trace id is 1 to 128 letters, digits, "-" or "_".`,
  );
}

/**
 * The order {@link TraceIndex.list} returns entries in: by session key, then by trace id.
 *
 * @example
 * entries.sort(compareTraceEntries);
 */
export function compareTraceEntries(a: TraceEntry, b: TraceEntry): number {
  return compare(a.sessionKey, b.sessionKey) || compare(a.traceId, b.traceId);
}

/** Code-unit order, the same in every locale (a database sorts with a binary collation). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isSessionKey(key: string): boolean {
  try {
    validateSessionKey(key);
    return true;
  } catch {
    return false;
  }
}
