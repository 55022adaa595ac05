import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConfigurationError, errorMessage, StateError } from '@tiny-claw/core';
import { escapedSnippet, isErrnoError, validateSessionKey } from '@tiny-claw/core/utils';
import {
  type TraceAttributes,
  type TraceSpanStatus,
  type TraceTree,
  traceTreeSchema,
} from '../trace-schema.js';
import { TRACE_ID_PATTERN, traceDirectory } from './trace-paths.js';

/**
 * One line of `tiny-claw trace list`.
 *
 * @example
 * const [newest]: TraceSummary[] = await listTraces(stateDir);
 */
export interface TraceSummary {
  sessionKey: string;
  traceId: string;
  path: string;
  /** The root span's name (`main`, `approval_resume`, …). */
  name: string;
  startedAt: string;
  endedAt: string | null;
  status: TraceSpanStatus;
  captureMode: TraceTree['capture_mode'];
  /** The root span's attributes: mode, stop reason, steps, provider… */
  attributes: TraceAttributes;
}

/**
 * A trace file found by {@link resolveTraceRef}.
 *
 * @example
 * const ref: TraceRef = await resolveTraceRef(stateDir, 'last');
 */
export interface TraceRef {
  sessionKey: string;
  traceId: string;
  path: string;
}

/**
 * Options of {@link listTraces}.
 *
 * @example
 * await listTraces(stateDir, { sessionKey: 'cli-1a2b3c4d5e6f-default', limit: 20 });
 */
export interface ListTracesOptions {
  /** Only this session's traces. */
  sessionKey?: string;
  /** Parse at most this many files, the most recently written first. */
  limit?: number;
}

/**
 * Read and validate one trace file.
 *
 * @throws StateError naming the file when it cannot be read, is not JSON, or is not a v1 trace.
 * Trace files are never moved or rewritten by reading them.
 *
 * @example
 * const tree = await readTrace(result.tracePath);
 * console.log(tree.root.children.length);
 */
export async function readTrace(path: string): Promise<TraceTree> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new StateError(`Could not read trace ${path}: ${errorMessage(error)}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // The parser quotes the text around the fault, which may hold escape sequences.
    const why = escapedSnippet(errorMessage(error), 160);
    throw new StateError(`Trace ${path} is not valid JSON: ${why}`, { cause: error });
  }
  const parsed = traceTreeSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // Keys and messages come from the file: escaped and short.
    const where = issue?.path.length ? escapedSnippet(issue.path.join('.'), 80) : '(root)';
    const why = escapedSnippet(issue?.message ?? 'invalid', 160);
    throw new StateError(`Trace ${path} is not a schema v1 trace (${where}: ${why})`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/**
 * Every readable trace of the state dir (or of one session), newest first by the root span's
 * `started_at`. Unreadable files are skipped; `onSkip` hears about each one.
 *
 * @example
 * for (const t of await listTraces(stateDir, { sessionKey })) console.log(t.traceId, t.status);
 */
export async function listTraces(
  stateDir: string,
  options: ListTracesOptions & { onSkip?: (path: string, error: unknown) => void } = {},
): Promise<TraceSummary[]> {
  let files = await traceFiles(stateDir, options.sessionKey);
  if (options.limit !== undefined) {
    files = files.sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, Math.max(0, options.limit));
  }
  const summaries: TraceSummary[] = [];
  for (const file of files) {
    try {
      const tree = await readTrace(file.path);
      summaries.push({
        sessionKey: file.sessionKey,
        traceId: tree.trace_id,
        path: file.path,
        name: tree.root.name,
        startedAt: tree.root.started_at,
        endedAt: tree.root.ended_at,
        status: tree.root.status,
        captureMode: tree.capture_mode,
        attributes: tree.root.attributes,
      });
    } catch (error) {
      options.onSkip?.(file.path, error);
    }
  }
  return summaries.sort(
    (a, b) =>
      (Date.parse(b.startedAt) || 0) - (Date.parse(a.startedAt) || 0) ||
      b.startedAt.localeCompare(a.startedAt) ||
      b.traceId.localeCompare(a.traceId),
  );
}

/**
 * Find the trace a person means: `last` (the newest trace of any session, or of `sessionKey`), a
 * full trace id, or a unique prefix of one.
 *
 * @throws ConfigurationError when nothing matches or a prefix is ambiguous.
 *
 * @example
 * const { path } = await resolveTraceRef(stateDir, 'last');
 * const tree = await readTrace(path);
 */
export async function resolveTraceRef(
  stateDir: string,
  ref: string,
  options: { sessionKey?: string } = {},
): Promise<TraceRef> {
  const scope = options.sessionKey ? ` in session ${options.sessionKey}` : '';
  if (ref === 'last') {
    // A run that started earlier can finish later, so look at a few recent files, not just one.
    const [newest] = await listTraces(stateDir, { ...options, limit: 32 });
    if (!newest) throw new ConfigurationError(`No traces found${scope} under ${stateDir}.`);
    return { sessionKey: newest.sessionKey, traceId: newest.traceId, path: newest.path };
  }
  if (!TRACE_ID_PATTERN.test(ref)) {
    throw new ConfigurationError(
      `Invalid trace id ${JSON.stringify(ref.slice(0, 140))}: use "last" or an id from "tiny-claw trace list".`,
    );
  }
  const files = await traceFiles(stateDir, options.sessionKey);
  const exact = files.filter((file) => file.traceId === ref);
  const matches = exact.length > 0 ? exact : files.filter((file) => file.traceId.startsWith(ref));
  const [only, second] = matches;
  if (!only) throw new ConfigurationError(`No trace ${JSON.stringify(ref)} found${scope}.`);
  if (second) {
    const ids = matches.slice(0, 5).map((file) => `${file.sessionKey}/${file.traceId}`);
    throw new ConfigurationError(
      `Trace id ${JSON.stringify(ref)} is ambiguous${scope}: ${ids.join(', ')}${matches.length > 5 ? ', …' : ''}. Give more characters or --session.`,
    );
  }
  return { sessionKey: only.sessionKey, traceId: only.traceId, path: only.path };
}

interface TraceFile {
  sessionKey: string;
  traceId: string;
  path: string;
  mtimeMs: number;
}

async function traceFiles(stateDir: string, sessionKey?: string): Promise<TraceFile[]> {
  const keys = sessionKey
    ? [validateSessionKey(sessionKey)]
    : await listDirectory(join(resolve(stateDir), 'sessions'));
  const found: TraceFile[] = [];
  for (const key of keys) {
    let dir: string;
    try {
      dir = traceDirectory(stateDir, key);
    } catch {
      continue; // not a session directory tiny-claw made
    }
    for (const name of await listDirectory(dir)) {
      const traceId = name.slice(0, -'.json'.length);
      if (!name.endsWith('.json') || !TRACE_ID_PATTERN.test(traceId)) continue;
      const path = join(dir, name);
      const info = await stat(path).catch(() => undefined);
      if (info?.isFile()) found.push({ sessionKey: key, traceId, path, mtimeMs: info.mtimeMs });
    }
  }
  return found;
}

async function listDirectory(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (isErrnoError(error, 'ENOENT') || isErrnoError(error, 'ENOTDIR')) return [];
    throw new StateError(`Could not list ${dir}: ${errorMessage(error)}`, { cause: error });
  }
}
