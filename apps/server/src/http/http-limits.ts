import type { ServerOptions } from 'node:http';

/**
 * How long the server waits on a client and how much header it reads: a connection that sends
 * its request slowly, or never finishes it, is answered 408 and closed instead of held open.
 *
 * @example
 * const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, headersTimeoutMs: 5_000 };
 */
export interface HttpLimits {
  /** From the moment a connection opens (or its previous request ended) to the end of the headers. */
  headersTimeoutMs: number;
  /** From the same moment to the end of the body; at least `headersTimeoutMs`. */
  requestTimeoutMs: number;
  /** How long a connection with no request in progress is kept open for the next one. */
  keepAliveTimeoutMs: number;
  /** Largest header block read; a larger one is answered 431. */
  maxHeaderBytes: number;
}

/**
 * The limits the server runs with: Feishu sends a few KB at once and answers within seconds, so
 * 10 s for the headers, 30 s for the whole request, 5 s of idle keep-alive and 16 KiB of headers
 * leave it room while no slow client can hold a connection for long.
 *
 * @example
 * DEFAULT_HTTP_LIMITS.headersTimeoutMs; // 10_000
 */
export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
});

/** Node checks the header and request timeouts at this interval, 30 s unless told otherwise. */
const MAX_CHECK_INTERVAL_MS = 1_000;

/**
 * The Node `http.createServer` options that enforce `limits`. The timeouts are checked every
 * second (every half header timeout when that is shorter), so a slow connection is closed at most
 * that long after its limit.
 *
 * @throws RangeError when the request timeout is shorter than the header timeout.
 * @example
 * serve({ fetch, serverOptions: nodeServerOptions(DEFAULT_HTTP_LIMITS) });
 */
export function nodeServerOptions(limits: HttpLimits): ServerOptions {
  if (limits.requestTimeoutMs < limits.headersTimeoutMs) {
    throw new RangeError(
      `the request timeout (${limits.requestTimeoutMs} ms) must not be shorter than the header timeout (${limits.headersTimeoutMs} ms)`,
    );
  }
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    maxHeaderSize: limits.maxHeaderBytes,
    connectionsCheckingInterval: Math.max(
      1,
      Math.min(MAX_CHECK_INTERVAL_MS, Math.floor(limits.headersTimeoutMs / 2)),
    ),
  };
}
