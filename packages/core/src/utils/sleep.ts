/**
 * Wait `ms`, or reject with the signal's reason as soon as it aborts. Unlike the vendor SDKs'
 * sleeps, an abort (Ctrl-C) never has to wait for the timer to run out.
 *
 * @example
 * await sleep(500, controller.signal);
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
