import type { RunMemory } from '../store/state-store.js';
import { resolveSession } from './resolve-session.js';
import type { SessionRef } from './session-ref.js';

/** The source of the session a run asked for without one: it belongs to that run alone. */
export const RUN_SESSION_SOURCE = 'run';

/**
 * The session of a run started without one: keyed by the run id (`run-<workdir hash>-<run id>`),
 * so it is that run's alone. It reads and writes no memory and keeps its plan inside the run; it
 * is the key a paused run's approval request and state are kept under, so the run can be resumed.
 *
 * @example
 * const session = await runSession('/repo', runId); // { key: 'run-1a2b3c4d5e6f-9f86…', source: 'run', … }
 */
export function runSession(workdir: string, runId: string): Promise<SessionRef> {
  return resolveSession({
    source: RUN_SESSION_SOURCE,
    workdir,
    externalId: runId,
    displayName: `run ${runId}`,
  });
}

/**
 * Whether `session` is a run's own (see {@link runSession}): nothing of it is remembered.
 *
 * @example
 * isRunSession(result.state.session); // true for a run started without a session
 */
export function isRunSession(session: Pick<SessionRef, 'source'>): boolean {
  return session.source === RUN_SESSION_SOURCE;
}

/**
 * The memory of a run's own session: nothing to read, nothing kept.
 *
 * @example
 * await noMemory.readRecent(5); // []
 */
export const noMemory: RunMemory = {
  append: async () => {},
  readRecent: async () => [],
};
