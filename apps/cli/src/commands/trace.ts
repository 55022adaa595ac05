import { resolve } from 'node:path';
import { ConfigurationError, cliSession, errorMessage, StateError } from '@tiny-claw/core';
import { validateSessionKey } from '@tiny-claw/core/utils';
import { listStoredTraces, readStoredTrace, type Settings } from '@tiny-claw/runtime';
import {
  formatDuration,
  listTraces,
  readTrace,
  renderTraceHtml,
  renderTraceTree,
  resolveTraceRef,
  spanDurationMs,
  TRACE_ID_PATTERN,
  type TraceRef,
  type TraceSummary,
  type TraceTree,
  traceTreeSchema,
} from '@tiny-claw/tracing';
import { writeFileAtomic } from '@tiny-claw/workspace/files';
import { ExitCode } from '../exit-codes.js';
import { loadSettingsOnly } from '../load-settings.js';
import type { Output } from '../output.js';
import { printable, printableJson } from '../terminal-text.js';
import { table } from '../text-table.js';
import { parseTraceArgs } from '../trace-args.js';
import { traceHelp, traceText } from '../trace-strings.js';

// A full key as `trace list` prints it; --session accepts one so non-CLI sessions can be filtered too.
const FULL_SESSION_KEY = /^(cli|feishu|subagent)-[0-9a-f]{12}-./;

/** Where the trace commands look, resolved once per command. */
interface Scope {
  stateDir: string;
  /** The session key to search, when --session was given. */
  sessionKey: string | undefined;
  /** The name the person typed, for messages. */
  sessionName: string | undefined;
}

/**
 * `tiny-claw trace list | show <id|last> | view <id|last>`: find the runs' trace files and print
 * them as a list, a terminal tree (or JSON), or one self-contained HTML page.
 *
 * Returns the exit code: 0, or 1 when no trace matches (with a message saying how to record one).
 *
 * @throws UsageError for bad subcommands, flags or ids (the caller prints it, exit 2).
 *
 * @example
 * process.exitCode = await traceCommand(['show', 'last'], processOutput());
 */
export async function traceCommand(argv: string[], out: Output): Promise<number> {
  const args = parseTraceArgs(argv);
  if (args.action === 'help') {
    out.stdout(traceHelp);
    return ExitCode.ok;
  }
  const settings = await loadSettingsOnly();
  const scope: Scope = {
    stateDir: settings.stateDir,
    sessionKey:
      args.session === undefined ? undefined : await cliSessionKey(settings.workdir, args.session),
    sessionName: args.session,
  };
  if (args.action === 'list') return listCommand(settings, scope, args.json, out);

  let found: Pick<TraceRef, 'traceId'> | undefined;
  let tree: TraceTree;
  const stored =
    args.ref === 'last'
      ? await newestStoredTrace(settings, scope, out)
      : await storedTrace(settings, scope, args.ref);
  if (stored !== undefined) {
    found = stored;
    tree = stored.tree;
  } else {
    const local = await findTrace(scope, args.ref, out);
    if (local === undefined) return ExitCode.runtime;
    found = local;
    try {
      tree = await readTrace(local.path);
    } catch (error) {
      if (!(error instanceof StateError)) throw error;
      // The reader's message names the file and what is wrong with it.
      return fail(out, errorMessage(error));
    }
  }

  if (args.action === 'show') {
    if (args.json) out.stdout(`${printableJson(tree)}\n`);
    // Colour only when the tree goes to a terminal: piped into a file it must stay plain text.
    else out.stdout(renderTraceTree(tree, { color: out.color && out.interactive }));
    return ExitCode.ok;
  }

  const html = renderTraceHtml(tree);
  if (args.out === '-') {
    out.stdout(html);
    return ExitCode.ok;
  }
  // The file name comes from the trace file's own name, which the reader checked is a safe id.
  const target = resolve(process.cwd(), args.out ?? `tiny-claw-trace-${found.traceId}.html`);
  try {
    // 0600 like every state file: a replay-mode trace can hold redacted but still private payloads.
    await writeFileAtomic(target, html, { mode: 0o600 });
  } catch (error) {
    if (!(error instanceof StateError)) throw error;
    return fail(out, errorMessage(error));
  }
  out.stdout(traceText.wrote(printable(target)));
  if (out.interactive) out.stderr(`${traceText.wroteHint}\n`);
  return ExitCode.ok;
}

async function listCommand(
  settings: Settings,
  scope: Scope,
  json: boolean,
  out: Output,
): Promise<number> {
  const local = await listTraces(scope.stateDir, {
    ...(scope.sessionKey === undefined ? {} : { sessionKey: scope.sessionKey }),
    onSkip: (path, error) =>
      out.stderr(`tiny-claw: ${printable(traceText.skipped(path, errorMessage(error)))}\n`),
  });
  const traces = newestFirst([...local, ...(await storedSummaries(settings, scope, local, out))]);
  if (json) {
    out.stdout(`${printableJson(traces)}\n`);
    return ExitCode.ok;
  }
  if (traces.length === 0) {
    // An empty list is an answer, not a failure; the hint goes where people look for hints.
    out.stderr(`${traceText.noTraces(scope.stateDir, scope.sessionName)}\n`);
    return ExitCode.ok;
  }
  out.stdout(table([[...traceText.listHeader], ...traces.map(listRow)]));
  return ExitCode.ok;
}

/**
 * With `TINY_CLAW_STATE_URL`, the traces other processes or replicas recorded in the PostgreSQL
 * state store that this state dir has no file of (`path` is where their tracer wrote them).
 */
async function storedSummaries(
  settings: Settings,
  scope: Scope,
  local: readonly TraceSummary[],
  out: Output,
): Promise<TraceSummary[]> {
  if (settings.stateUrl === undefined) return [];
  const known = new Set(local.map((trace) => trace.traceId));
  const stored = await listStoredTraces(
    settings,
    scope.sessionKey === undefined ? {} : { sessionKey: scope.sessionKey },
  );
  const summaries: TraceSummary[] = [];
  for (const entry of stored) {
    if (known.has(entry.traceId)) continue;
    const parsed = traceTreeSchema.safeParse(entry.trace);
    if (!parsed.success) {
      const why = parsed.error.issues[0]?.message ?? 'invalid';
      out.stderr(`tiny-claw: ${printable(traceText.skipped(entry.path, why))}\n`);
      continue;
    }
    const tree = parsed.data;
    summaries.push({
      sessionKey: entry.sessionKey,
      traceId: entry.traceId,
      path: entry.path,
      name: tree.root.name,
      startedAt: tree.root.started_at,
      endedAt: tree.root.ended_at,
      status: tree.root.status,
      captureMode: tree.capture_mode,
      attributes: tree.root.attributes,
    });
  }
  return summaries;
}

function newestFirst(traces: TraceSummary[]): TraceSummary[] {
  return traces.sort(
    (a, b) =>
      (Date.parse(b.startedAt) || 0) - (Date.parse(a.startedAt) || 0) ||
      b.traceId.localeCompare(a.traceId),
  );
}

/**
 * `last` with `TINY_CLAW_STATE_URL`: the newest trace, local or stored, read from the database
 * when another process recorded it; undefined when the newest is a local file (read as usual).
 */
async function newestStoredTrace(
  settings: Settings,
  scope: Scope,
  out: Output,
): Promise<{ traceId: string; tree: TraceTree } | undefined> {
  if (settings.stateUrl === undefined) return undefined;
  const options = scope.sessionKey === undefined ? {} : { sessionKey: scope.sessionKey };
  const local = await listTraces(scope.stateDir, { ...options, limit: 1 });
  const stored = await storedSummaries(settings, scope, local, out);
  const newest = newestFirst([...local, ...stored])[0];
  if (newest === undefined || local.includes(newest)) return undefined;
  return storedTrace(settings, scope, newest.traceId);
}

function listRow(trace: TraceSummary): string[] {
  const duration = spanDurationMs({ started_at: trace.startedAt, ended_at: trace.endedAt });
  const steps = trace.attributes.steps;
  const stop = trace.attributes.stop_reason;
  return [
    trace.traceId,
    trace.sessionKey,
    trace.startedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
    duration === undefined ? traceText.unknownValue : formatDuration(duration),
    trace.status,
    typeof steps === 'number' ? String(steps) : traceText.unknownValue,
    typeof stop === 'string' ? stop : traceText.unknownValue,
    trace.name,
  ].map((cell) => printable(cell));
}

/**
 * The trace a ref names, or undefined after printing why there is none: the lead-in people need is
 * how to record a trace when there are none, and where to find the ids when the id is wrong.
 */
async function findTrace(scope: Scope, ref: string, out: Output): Promise<TraceRef | undefined> {
  const options = scope.sessionKey === undefined ? {} : { sessionKey: scope.sessionKey };
  try {
    return await resolveTraceRef(scope.stateDir, ref, options);
  } catch (error) {
    // Not finding a trace is an ordinary outcome here (exit 1), not a configuration problem (78).
    if (!(error instanceof ConfigurationError)) throw error;
    const any = await listTraces(scope.stateDir, { ...options, limit: 8 });
    if (ref === 'last' || any.length === 0) {
      fail(out, traceText.noTraces(scope.stateDir, scope.sessionName));
    } else {
      fail(out, `${error.message}\n${traceText.listHint(scope.sessionName)}`);
    }
    return undefined;
  }
}

/**
 * With `TINY_CLAW_STATE_URL`, a trace this state dir has no file of (another process or replica
 * wrote it) is read from the PostgreSQL state store, which keeps every recorded trace. Only an
 * exact id is looked up there, and only when no local file matches it.
 */
async function storedTrace(
  settings: Settings,
  scope: Scope,
  ref: string,
): Promise<{ traceId: string; tree: TraceTree } | undefined> {
  if (settings.stateUrl === undefined || ref === 'last' || !TRACE_ID_PATTERN.test(ref)) {
    return undefined;
  }
  const options = scope.sessionKey === undefined ? {} : { sessionKey: scope.sessionKey };
  const local = await resolveTraceRef(scope.stateDir, ref, options).catch(() => undefined);
  if (local !== undefined) return undefined;
  const stored = await readStoredTrace(settings, ref);
  if (stored === undefined) return undefined;
  if (scope.sessionKey !== undefined && stored.sessionKey !== scope.sessionKey) return undefined;
  const parsed = traceTreeSchema.safeParse(stored.trace);
  if (!parsed.success) {
    throw new StateError(
      `Trace ${ref} in the PostgreSQL state store is not a schema v1 trace (${parsed.error.issues[0]?.message ?? 'invalid'}).`,
    );
  }
  return { traceId: ref, tree: parsed.data };
}

/** The key `tiny-claw run --session NAME` uses in this workdir. */
async function cliSessionKey(workdir: string, name: string): Promise<string> {
  if (FULL_SESSION_KEY.test(name)) {
    try {
      return validateSessionKey(name);
    } catch {
      // Not a well-formed key after all: treat it as a name like any other.
    }
  }
  return (await cliSession(workdir, name)).key;
}

/** A message that may quote a file name or a trace's content, made safe to print. */
function fail(out: Output, message: string): number {
  out.stderr(`tiny-claw: ${printable(message, { multiline: true })}\n`);
  return ExitCode.runtime;
}
