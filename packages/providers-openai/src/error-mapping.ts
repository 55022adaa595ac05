import { ProviderError, type ProviderErrorKind } from '@tiny-claw/core';
import { oneLine, scrubSecrets } from '@tiny-claw/core/utils';
import type { APIError } from 'openai';
import { text } from './strings.js';

/**
 * The error classes we tell apart; passed in because the SDK is loaded lazily.
 *
 * @example
 * const sdk: SdkErrorClasses = await import('openai');
 */
export interface SdkErrorClasses {
  APIError: typeof APIError;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

/**
 * What an error message may say about the call that failed.
 *
 * @example
 * const context: ErrorContext = { apiKey, model: 'gpt-4.1', baseUrl: 'https://api.openai.com/v1', timeoutMs: 600_000, retries: 0 };
 */
export interface ErrorContext {
  apiKey: string;
  model: string;
  /** Already made safe to show (see {@link displayUrl}). */
  baseUrl: string;
  timeoutMs: number;
  /** How many retries were made before giving up. */
  retries: number;
}

const MAX_DETAIL_CHARS = 300;

/**
 * Upstream text made fit for an error message: every credential removed (the configured key, any
 * fragment of it, and whatever the shared secret rules recognise; OpenAI echoes a masked key such
 * as `sk-abc***wxyz` on 401) and cut to one short line.
 *
 * @example
 * safeDetail('Incorrect API key provided: sk-proj-abc***wxyz.', 'sk-proj-abcdefwxyz'); // 'Incorrect API key provided: [redacted].'
 */
export function safeDetail(input: string, apiKey: string): string {
  return oneLine(scrubSecrets(input, [apiKey]), MAX_DETAIL_CHARS);
}

/**
 * A base URL safe to print: credentials, query and fragment dropped.
 *
 * @example
 * displayUrl('https://user:pw@example.com/v1?key=x'); // 'https://example.com/v1'
 */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(invalid base URL)';
  }
}

/**
 * Is this a context-length refusal? OpenAI says `context_length_exceeded`; compatible servers
 * (vLLM, llama.cpp, Ollama, proxies in front of Anthropic) say it in words. A 413 is the same
 * problem seen by a proxy. Param validation like "string too long" is not.
 *
 * @example
 * isContextLengthError(400, 'context_length_exceeded', "This model's maximum context length is 8192 tokens"); // true
 */
export function isContextLengthError(status: number, code: unknown, message: string): boolean {
  if (status === 413) return true;
  if (status !== 400) return false;
  if (code === 'context_length_exceeded') return true;
  if (/string too long/i.test(message)) return false;
  return /context[_ ]length|maximum context|context (window|size|limit)|too long|too many tokens/i.test(
    message,
  );
}

/**
 * Turn anything the SDK threw into a `ProviderError` with a one-line, key-free message that starts
 * with `OpenAI request failed:` and names the status.
 *
 * @example
 * throw toProviderError(error, sdk, { apiKey, model, baseUrl, timeoutMs, retries: 2 });
 */
export function toProviderError(
  error: unknown,
  sdk: SdkErrorClasses,
  context: ErrorContext,
): ProviderError {
  if (error instanceof ProviderError) return error;
  const make = (message: string, kind: ProviderErrorKind, retryable: boolean, status?: number) =>
    new ProviderError(message, {
      cause: error,
      kind,
      isRetryable: retryable,
      ...(status === undefined ? {} : { status }),
    });
  const { retries, model, baseUrl } = context;
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return make(text.timeout(baseUrl, context.timeoutMs, retries), 'timeout', true);
  }
  if (error instanceof sdk.APIConnectionError) {
    return make(
      text.connection(baseUrl, retries, scrub(connectionDetail(error), context)),
      'connection',
      true,
    );
  }
  if (error instanceof sdk.APIError && typeof error.status === 'number') {
    const status = error.status;
    const detail = scrub(apiErrorDetail(error), context);
    if (status === 401 || status === 403)
      return make(text.auth(status, detail), 'auth', false, status);
    if (status === 404)
      return make(text.notFound(status, model, baseUrl, detail), 'not_found', false, status);
    if (isContextLengthError(status, error.code, detail)) {
      return make(text.contextLength(status, model, detail), 'context_length', false, status);
    }
    if (status === 429)
      return make(text.rateLimit(status, retries, detail), 'rate_limit', true, status);
    if (status === 408) {
      return make(text.server(status, retries, detail), 'timeout', true, status);
    }
    if (status >= 500 || status === 409) {
      return make(text.server(status, retries, detail), 'server', true, status);
    }
    if (status >= 400 && status < 500) {
      return make(text.badRequest(status, detail), 'bad_request', false, status);
    }
    return make(text.otherStatus(status, detail), 'unknown', false, status);
  }
  const message = error instanceof Error ? error.message : String(error);
  return make(text.unknown(scrub(message, context)), 'unknown', false);
}

function scrub(detail: string, context: ErrorContext): string {
  return safeDetail(detail, context.apiKey);
}

/** The server's own message, without the SDK's `"<status> "` prefix. */
function apiErrorDetail(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  return error.message.replace(/^\d{3}\s+/, '').replace(/^status code \(no body\)$/, '');
}

/** `Connection error. (ECONNREFUSED)`: the SDK hides the useful part in the cause chain. */
function connectionDetail(error: Error): string {
  const codes: string[] = [];
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 5 && cause instanceof Error; depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && !codes.includes(code)) codes.push(code);
    cause = cause.cause;
  }
  return codes.length > 0 ? `${error.message} (${codes.join(', ')})` : error.message;
}
