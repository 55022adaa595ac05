/**
 * Aborts its signal when {@link IdleWatchdog.touch} has not been called for `idleMs`. An HTTP
 * client's `timeout` only covers the wait for response headers; once a stream has started, a
 * server that goes silent would otherwise hang the run forever. The countdown starts at
 * construction.
 *
 * @example
 * const watchdog = new IdleWatchdog(60_000);
 * const response = await withActivity(fetch, () => watchdog.touch())(url, { signal: watchdog.signal });
 * // … read the body; a minute without a byte aborts it …
 * watchdog.stop();
 */
export class IdleWatchdog {
  readonly idleMs: number;
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(idleMs: number) {
    this.idleMs = idleMs;
    this.touch();
  }

  /** Aborted (with a `TimeoutError` naming the limit) when the watchdog fires. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** True once the idle limit was reached. */
  get fired(): boolean {
    return this.#controller.signal.aborted;
  }

  /** Something arrived: restart the countdown. */
  touch(): void {
    if (this.fired) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#controller.abort(this.#reason()), this.idleMs);
  }

  /** The exchange is over; never fire. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #reason(): Error {
    const error = new Error(`no data for ${this.idleMs} ms`);
    error.name = 'TimeoutError';
    return error;
  }
}

/**
 * Wrap a `fetch` so `onActivity` runs when headers arrive and on every chunk of body bytes.
 * Counting bytes (not parsed events) means SSE keep-alive comments and pings, which servers send
 * while a model is thinking, count as life.
 *
 * @example
 * const tracked = withActivity(fetch, () => watchdog.touch());
 */
export function withActivity(fetchImpl: typeof fetch, onActivity: () => void): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    onActivity();
    return withBodyActivity(response, onActivity);
  };
}

/**
 * The same response with `onActivity` run on every chunk of its body as it is read, for a caller
 * that gets the response from somewhere other than its own `fetch` (an SDK's raw response).
 *
 * @example
 * const tracked = withBodyActivity(await request.asResponse(), () => watchdog.touch());
 */
export function withBodyActivity(response: Response, onActivity: () => void): Response {
  if (!response.body) return response;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        onActivity();
        controller.enqueue(chunk);
      },
    }),
  );
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
