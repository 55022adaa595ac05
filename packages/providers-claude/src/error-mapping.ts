import { ProviderError, type ProviderErrorKind } from '@tiny-claw/core';
import { oneLine, scrubSecrets } from '@tiny-claw/core/utils';
import { text } from './strings.js';

/**
 * What an error message may mention, and the secrets it must never contain.
 *
 * @example
 * const context: ErrorContext = { model, baseUrl, timeoutMs: 600_000, secrets: [apiKey] };
 */
export interface ErrorContext {
  model: string;
  baseUrl: string;
  timeoutMs: number;
  secrets: readonly string[];
}

/** The fields of an SDK `APIError` this mapping reads (duck-typed: the SDK is loaded lazily). */
interface ApiErrorShape {
  status?: number | undefined;
  error?: unknown;
  message: string;
  name: string;
  cause?: unknown;
}

const MAX_DETAIL_CHARS = 400;
/** Longest error message: the upstream detail plus what this package says around it. */
const MAX_MESSAGE_CHARS = MAX_DETAIL_CHARS + 200;

// Anthropic words context overflows several ways; proxies add their own. Matched on 400/413 only.
const CONTEXT_LENGTH =
  /prompt is too long|exceeds? (?:the )?context (?:limit|window)|context[_ ]length|context window|maximum context length|too many (?:input )?tokens|input length and `?max_tokens`? exceed/i;

/**
 * Turn anything the SDK threw into a one-line `ProviderError` that starts with
 * `Claude request failed:`, carries the HTTP status, a `kind` the loop can act on, and
 * `isRetryable` for transient failures. Upstream text is kept (it explains the refusal) but
 * scrubbed of anything key-like and of every fragment of the configured key.
 *
 * | status / error | kind | retryable |
 * |---|---|---|
 * | 401, 403 | auth | no |
 * | 404 | not_found (names model and base URL) | no |
 * | 400/413 with a context-window message | context_length | no |
 * | other 400, 402, 413, 422 | bad_request | no |
 * | 429 | rate_limit | yes |
 * | 408, connection timeout | timeout | yes |
 * | 409, 5xx, 529 | server | yes |
 * | no response | connection | yes |
 *
 * @example
 * catch (error) { throw toProviderError(error, { model, baseUrl, timeoutMs, secrets: [apiKey] }); }
 */
export function toProviderError(error: unknown, context: ErrorContext): ProviderError {
  if (error instanceof ProviderError) return error;
  if (!isApiErrorShape(error)) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const kind: ProviderErrorKind = error instanceof SyntaxError ? 'invalid_response' : 'unknown';
    const what = kind === 'invalid_response' ? text.invalidResponse : text.unknown;
    return build(context, `${what} (${detail})`, { kind, cause: error });
  }
  if (error.name === 'APIConnectionTimeoutError') {
    return build(context, text.timeout(context.timeoutMs), {
      kind: 'timeout',
      retryable: true,
      cause: error,
    });
  }
  if (error.status === undefined) {
    const cause = describeCause(error);
    const detail = cause ? ` (${cause})` : '';
    return build(context, `${text.connection(redactUrl(context.baseUrl))}${detail}`, {
      kind: 'connection',
      retryable: true,
      cause: error,
    });
  }
  const status = error.status;
  const { type, message } = upstream(error);
  const detail = [type, message].filter(Boolean).join(': ');
  const classified = classify(status, `${type} ${message}`, context);
  return build(context, `${status} ${classified.what}${detail ? ` — ${detail}` : ''}`, {
    kind: classified.kind,
    retryable: classified.retryable,
    status,
    cause: error,
  });
}

function classify(
  status: number,
  upstreamText: string,
  context: ErrorContext,
): { kind: ProviderErrorKind; retryable: boolean; what: string } {
  if (status === 401 || status === 403) return { kind: 'auth', retryable: false, what: text.auth };
  if (status === 404) {
    const what = text.notFound(context.model, redactUrl(context.baseUrl));
    return { kind: 'not_found', retryable: false, what };
  }
  if ((status === 400 || status === 413) && CONTEXT_LENGTH.test(upstreamText)) {
    return { kind: 'context_length', retryable: false, what: text.contextLength };
  }
  if (status === 429) return { kind: 'rate_limit', retryable: true, what: text.rateLimit };
  if (status === 408)
    return { kind: 'timeout', retryable: true, what: text.timeout(context.timeoutMs) };
  if (status === 409 || status >= 500)
    return { kind: 'server', retryable: true, what: text.server };
  return { kind: 'bad_request', retryable: false, what: text.badRequest };
}

function build(
  context: ErrorContext,
  body: string,
  options: { kind: ProviderErrorKind; retryable?: boolean; status?: number; cause?: unknown },
): ProviderError {
  return new ProviderError(safeMessage(`${text.failedPrefix} ${body}`, context.secrets), {
    kind: options.kind,
    isRetryable: options.retryable ?? false,
    ...(options.status === undefined ? {} : { status: options.status }),
    // The SDK error's message and headers may echo the key: keep it off the chain we expose.
    cause: sanitizedCause(options.cause, context),
  });
}

/**
 * A message safe to show: one line, bounded (a proxy's HTML error page must not flood the
 * terminal), and free of the configured key, any fragment of it and anything else key-like.
 *
 * @example
 * safeMessage('Claude request failed: 401 … sk-ant-api03-…', [apiKey]); // 'Claude request failed: 401 … [redacted]'
 */
export function safeMessage(value: string, secrets: readonly string[]): string {
  return oneLine(scrubSecrets(value, secrets), MAX_MESSAGE_CHARS);
}

function upstream(error: ApiErrorShape): { type: string; message: string } {
  const body = error.error as
    | { error?: { type?: unknown; message?: unknown }; message?: unknown }
    | undefined;
  const inner = body?.error;
  const type = typeof inner?.type === 'string' ? inner.type : '';
  const raw =
    typeof inner?.message === 'string'
      ? inner.message
      : typeof body?.message === 'string'
        ? body.message
        : body === undefined
          ? ''
          : JSON.stringify(body);
  return { type, message: oneLine(raw, MAX_DETAIL_CHARS) };
}

function describeCause(error: ApiErrorShape): string {
  const cause = error.cause as { message?: unknown; code?: unknown; cause?: unknown } | undefined;
  const nested = cause?.cause as { code?: unknown; message?: unknown } | undefined;
  const code =
    typeof nested?.code === 'string'
      ? nested.code
      : typeof cause?.code === 'string'
        ? cause.code
        : '';
  const message = typeof cause?.message === 'string' ? cause.message : '';
  return [message, code].filter(Boolean).join(', ');
}

function isApiErrorShape(error: unknown): error is ApiErrorShape {
  // Every SDK APIError (connection errors included) sets both fields, even when undefined.
  return error instanceof Error && 'status' in error && 'headers' in error;
}

function sanitizedCause(cause: unknown, context: ErrorContext): unknown {
  if (!(cause instanceof Error)) return cause;
  const copy = new Error(safeMessage(cause.message, context.secrets));
  copy.name = cause.name;
  return copy;
}

/**
 * Drop `user:password@`, the query and the fragment from a URL before it is shown: any of them may
 * carry a credential (`?api_key=…`), and none helps to recognise the endpoint.
 *
 * @example
 * redactUrl('https://u:p@proxy.example/v1?key=s3cret'); // 'https://proxy.example/v1'
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password && !parsed.search && !parsed.hash) return url;
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.toString();
  } catch {
    return url;
  }
}
