import { IdleWatchdog, withBodyActivity } from './idle-watchdog.js';

/**
 * The stream idle policy every tiny-claw provider applies to one HTTP attempt. Until the response
 * headers arrive, the client's own `timeout` governs; from then on, an {@link IdleWatchdog}
 * abandons the attempt when no byte arrives for `idleMs` (keep-alive comments and pings count as
 * life). The caller's abort ends the attempt too, and is told apart from a stall by
 * {@link AttemptWatch.stalled}.
 *
 * @example
 * const watch = watchAttempt(60_000, signal);
 * try {
 *   const response = watch.track(await fetch(url, { signal: watch.signal }));
 *   // … read the body …
 * } finally {
 *   watch.stop();
 * }
 */
export interface AttemptWatch {
  /** Aborted by the caller's signal or when the stream stalls; pass it to the request. */
  readonly signal: AbortSignal;
  /** The idle limit in ms. */
  readonly idleMs: number;
  /** True once the watchdog abandoned the attempt for silence. */
  readonly stalled: boolean;
  /** Arm the watchdog (headers arrived) and count every body chunk of `response` as life. */
  track(response: Response): Response;
  /** The attempt is over: disarm, detach from the caller's signal, release the request. */
  stop(): void;
}

/**
 * Start watching one attempt; see {@link AttemptWatch}.
 *
 * @example
 * const watch = watchAttempt(idleTimeoutMs, signal);
 */
export function watchAttempt(idleMs: number, signal?: AbortSignal): AttemptWatch {
  const controller = new AbortController();
  const forwardAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) forwardAbort();
  else signal?.addEventListener('abort', forwardAbort, { once: true });
  let watchdog: IdleWatchdog | undefined;
  return {
    signal: controller.signal,
    idleMs,
    get stalled() {
      return watchdog?.fired ?? false;
    },
    track(response) {
      if (watchdog === undefined) {
        const armed = new IdleWatchdog(idleMs);
        armed.signal.addEventListener('abort', () => controller.abort(armed.signal.reason), {
          once: true,
        });
        watchdog = armed;
      } else {
        watchdog.touch();
      }
      const alive = watchdog;
      return withBodyActivity(response, () => alive.touch());
    },
    stop() {
      watchdog?.stop();
      signal?.removeEventListener('abort', forwardAbort);
      // Releases the socket when the reader stopped early; a no-op once the body was read.
      controller.abort();
    },
  };
}
