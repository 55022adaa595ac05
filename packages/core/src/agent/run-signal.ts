/**
 * One run's cancellation: a signal that aborts as soon as any of the caller's signals does, with
 * the first one's reason. It holds every caller signal strongly (and listens to it) until
 * {@link RunSignal.release}, so a signal nobody else keeps — `AbortSignal.timeout(ms)` passed
 * inline — cannot be garbage-collected before it fires, as it can behind `AbortSignal.any()`.
 */
export interface RunSignal {
  readonly signal: AbortSignal;
  /** Stop listening to the caller's signals; call it once the run has ended. */
  release(): void;
}

/**
 * Link the caller's signals (undefined ones are skipped) into one run signal. Release it when the
 * run ends, so a long-lived signal (an agent-wide one) keeps no listener per finished run.
 *
 * @example
 * const linked = linkSignals([agentSignal, options.signal]);
 * try {
 *   return await startRun(setup, { ...request, signal: linked.signal });
 * } finally {
 *   linked.release();
 * }
 */
export function linkSignals(sources: readonly (AbortSignal | undefined)[]): RunSignal {
  const controller = new AbortController();
  const held: Array<{ source: AbortSignal; onAbort: () => void }> = [];
  for (const source of sources) {
    if (source === undefined) continue;
    if (source.aborted) {
      controller.abort(source.reason);
      break;
    }
    const onAbort = () => controller.abort(source.reason);
    source.addEventListener('abort', onAbort, { once: true });
    held.push({ source, onAbort });
  }
  return {
    signal: controller.signal,
    release() {
      for (const { source, onAbort } of held.splice(0)) {
        source.removeEventListener('abort', onAbort);
      }
    },
  };
}
