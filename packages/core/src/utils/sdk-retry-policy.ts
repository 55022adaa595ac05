import { isRetryableStatus, type RetryOptions } from './with-retries.js';

/**
 * How a provider over a vendor SDK applies the one retry policy (`withRetries`, with the SDK's own
 * retries switched off): which SDK errors are worth another attempt, and when an unfinished
 * stream may be asked for again. The SDK's error classes are passed in, so this module names no
 * vendor and loads no SDK.
 *
 * @example
 * await withRetries(send, retryPolicy(2, signal, sdk));
 *
 * @module
 */

/**
 * The SDK error classes the policy tells apart; passed in because the SDK is loaded lazily.
 *
 * @example
 * const errors: SdkErrors = sdkModule; // the loaded SDK: its APIError, APIConnectionError, APIUserAbortError
 */
export interface SdkErrors {
  APIError: abstract new (...args: never[]) => Error & { status: unknown; headers: unknown };
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

/**
 * A streamed attempt that must not be used. Retried (after the backoff) only while `spoke` is
 * false: once text reached the caller, a second attempt would show it twice.
 *
 * @example
 * throw new IncompleteStream('the connection closed before the last event arrived', spoke);
 */
export class IncompleteStream extends Error {
  readonly reason: string;
  readonly spoke: boolean;
  constructor(reason: string, spoke: boolean, cause?: unknown) {
    super(reason, cause === undefined ? undefined : { cause });
    this.reason = reason;
    this.spoke = spoke;
  }
}

/**
 * The HTTP retry policy: connection errors and timeouts, 408, 409, 429 and 5xx (529 included)
 * are retried `maxRetries` times, the server's `x-should-retry` wins, and the wait reads the
 * failed response's `retry-after`.
 *
 * @example
 * await withRetries(send, retryPolicy(2, signal, sdk));
 */
export function retryPolicy(
  maxRetries: number,
  signal: AbortSignal | undefined,
  sdk: SdkErrors,
): RetryOptions {
  return {
    maxRetries,
    signal,
    isRetryable: (error) => {
      if (error instanceof sdk.APIUserAbortError) return false;
      if (error instanceof sdk.APIConnectionError) return true;
      if (error instanceof sdk.APIError && typeof error.status === 'number') {
        return isRetryableStatus(error.status, headersOf(error));
      }
      return false;
    },
    retryAfter: (error) => (error instanceof sdk.APIError ? headersOf(error) : undefined),
  };
}

/**
 * The stream policy: an incomplete, stalled or errored stream is asked for again `streamRetries`
 * times after the backoff, unless it already sent text to the caller.
 *
 * @example
 * await withRetries(streamOnce, streamRetryPolicy(1, signal));
 */
export function streamRetryPolicy(
  streamRetries: number,
  signal: AbortSignal | undefined,
): RetryOptions {
  return {
    maxRetries: streamRetries,
    signal,
    isRetryable: (error) => error instanceof IncompleteStream && !error.spoke,
  };
}

function headersOf(error: { headers: unknown }): Headers | undefined {
  return error.headers instanceof Headers ? error.headers : undefined;
}
