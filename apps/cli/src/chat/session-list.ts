import { cliSession } from '@tiny-claw/core';
import { listTraces, readTrace, spanCostUsd, type TraceSummary } from '@tiny-claw/tracing';

/** One CLI session of a workdir, as `tiny-claw sessions` lists it. */
export interface SessionSummary {
  /** The name `--session` takes. */
  name: string;
  /** The full session key (`cli-<workdir hash>-<name>`). */
  key: string;
  /** When its latest run started (ISO 8601). */
  lastUsed: string;
  /** Runs started from a prompt (a decision that continued a run is part of that run's turn). */
  turns: number;
  /** Estimated USD of every model call of its runs; undefined when a call had no price. */
  costUsd: number | undefined;
}

/**
 * The CLI sessions of `workdir` that ran at least once, most recently used first, read from the
 * traces the runs left in the state dir (a session is the workdir's when its key carries the
 * workdir's hash). Unreadable traces are left out.
 *
 * @example
 * const [latest] = await listSessions(settings.stateDir, settings.workdir);
 */
export async function listSessions(stateDir: string, workdir: string): Promise<SessionSummary[]> {
  const prefix = await workdirKeyPrefix(workdir);
  const traces = (await listTraces(stateDir)).filter((t) => t.sessionKey.startsWith(prefix));
  const bySession = new Map<string, TraceSummary[]>();
  for (const trace of traces) {
    const list = bySession.get(trace.sessionKey) ?? [];
    list.push(trace);
    bySession.set(trace.sessionKey, list);
  }
  const sessions = await Promise.all(
    [...bySession].map(async ([key, runs]) => summarise(key, prefix, runs)),
  );
  return sessions.sort((a, b) => b.lastUsed.localeCompare(a.lastUsed));
}

async function summarise(
  key: string,
  prefix: string,
  runs: TraceSummary[],
): Promise<SessionSummary> {
  const named = runs.find((run) => typeof run.attributes.session_display_name === 'string');
  const name = named ? String(named.attributes.session_display_name) : key.slice(prefix.length);
  let costUsd: number | undefined = 0;
  for (const run of runs) {
    const cost = await readTrace(run.path).then(
      (tree) => spanCostUsd(tree.root),
      () => undefined,
    );
    costUsd = cost === undefined || costUsd === undefined ? undefined : costUsd + cost;
  }
  return {
    name,
    key,
    lastUsed:
      runs
        .map((run) => run.startedAt)
        .sort()
        .at(-1) ?? '',
    turns: runs.filter((run) => run.name === 'main').length,
    costUsd,
  };
}

/** `cli-<12 hex of the workdir>-`: what every CLI session key of the workdir starts with. */
async function workdirKeyPrefix(workdir: string): Promise<string> {
  const key = (await cliSession(workdir, 'default')).key;
  return key.slice(0, key.length - 'default'.length);
}
