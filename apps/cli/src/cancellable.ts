import { ExitCode } from './exit-codes.js';
import type { Output } from './output.js';

/**
 * Run `work` with Ctrl-C wired to its abort signal: the first Ctrl-C cancels cleanly (the run
 * ends `cancelled`, exit 130), a second one quits at once.
 *
 * @example
 * const result = await cancellable(out, (signal) => app.run({ prompt, signal }));
 */
export async function cancellable<T>(
  out: Output,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(ExitCode.interrupted);
    out.stderr('\ncancelling… (press Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}
