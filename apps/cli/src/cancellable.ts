import { type CancelSignal, exitCodeForSignal } from './exit-codes.js';
import type { Output } from './output.js';

const SIGNALS: readonly CancelSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** What the first signal says on stderr: which signal, and how to quit without waiting. */
export const cancelNotice = (signal: CancelSignal): string =>
  `\ntiny-claw: ${signal === 'SIGINT' ? 'Ctrl-C (SIGINT)' : signal} received: cancelling the run ` +
  '(stopping its commands, saving its trace). Press Ctrl-C or send the signal again to quit at once.\n';

/** The work's value, and the signal that asked it to stop, if one came. */
export interface CancellableOutcome<T> {
  value: T;
  signal: CancelSignal | undefined;
}

/**
 * Run `work` with SIGINT (Ctrl-C), SIGTERM and SIGHUP wired to its abort signal, all three the
 * same way: the first one aborts, so the run stops its tools' process groups and ends
 * `cancelled` with its trace written; the caller then exits 130 (SIGINT) or 143 (SIGTERM,
 * SIGHUP). A second signal, of any of the three, quits at once through `process.exit`, so the
 * synchronous `exit` hooks still run — the bash tool's kills whatever command is still alive.
 * Outside `work` the signals act as Node's defaults again.
 *
 * @example
 * const { value: result, signal } = await cancellable(out, (abort) => app.run({ prompt, signal: abort }));
 */
export async function cancellable<T>(
  out: Output,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<CancellableOutcome<T>> {
  const controller = new AbortController();
  let received: CancelSignal | undefined;
  const onSignal = (signal: CancelSignal) => {
    // process.exit, never process.kill(process.pid) or process.reallyExit: only process.exit runs
    // the `exit` hooks that stop the commands still running.
    if (received !== undefined) {
      process.exit(exitCodeForSignal(signal));
      return;
    }
    received = signal;
    out.stderr(cancelNotice(signal));
    controller.abort();
  };
  const listeners = SIGNALS.map((signal) => [signal, () => onSignal(signal)] as const);
  for (const [signal, listener] of listeners) process.on(signal, listener);
  try {
    const value = await work(controller.signal);
    return { value, signal: received };
  } finally {
    for (const [signal, listener] of listeners) process.off(signal, listener);
  }
}
