import type { StateHealth } from '@tiny-claw/runtime';
import type { ServerHealth } from './server-health.js';

/** How long `GET /health` waits for the state database before calling it unreachable. */
export const STATE_CHECK_TIMEOUT_MS = 5_000;

/**
 * The health report with the state backend checked: for PostgreSQL, one query over a connection
 * of its own; an answer that fails or takes longer than `timeoutMs` makes the server
 * `unavailable`, with the reason in `state.problem` (a load balancer then sends its traffic to
 * another replica). Files are always reachable.
 *
 * @example
 * const health = await withStateCheck(base, () => app.checkState());
 * const status = health.status === 'unavailable' ? 503 : 200;
 */
export async function withStateCheck(
  base: ServerHealth,
  check: () => Promise<StateHealth>,
  timeoutMs = STATE_CHECK_TIMEOUT_MS,
): Promise<ServerHealth> {
  if (base.state.backend === 'files') return base;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<StateHealth>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          backend: 'postgres',
          url: '',
          reachable: false,
          problem: `no answer within ${timeoutMs} ms`,
        }),
      timeoutMs,
    );
    timer.unref();
  });
  const state = await Promise.race([
    check().catch(
      (error: unknown): StateHealth => ({
        backend: 'postgres',
        url: '',
        reachable: false,
        problem: error instanceof Error ? error.message : String(error),
      }),
    ),
    timedOut,
  ]).finally(() => clearTimeout(timer));
  const checked = {
    ...base.state,
    reachable: state.reachable,
    ...(state.schemaVersion === undefined ? {} : { schemaVersion: state.schemaVersion }),
    ...(state.reachable
      ? {}
      : {
          problem: `the PostgreSQL state store cannot be reached (${state.problem ?? 'no reason given'}); check TINY_CLAW_STATE_URL and that the database is up`,
        }),
  };
  return { ...base, state: checked, ...(state.reachable ? {} : { status: 'unavailable' }) };
}
