/** Feishu's business code for "too many requests". */
export const RATE_LIMITED_CODE = 99991400;
/** Codes that say the message itself is wrong: sending it again cannot help. */
const FORMAT_CODES = new Set([230001, 230002, 230099]);
/** The chat or message is gone, or the app was removed from the chat. */
const GONE_CODES = new Set([230017, 230020]);

/**
 * How a failed call to the open API should be handled: `rate_limited` and `unknown` (network
 * errors, 5xx) are retried; the others are not.
 *
 * @example
 * const kind: FeishuFailureKind = 'rate_limited';
 */
export type FeishuFailureKind = 'rate_limited' | 'format' | 'gone' | 'refused' | 'unknown';

/**
 * A failed call to the Feishu open API, with what the response said (never request data, which
 * holds the message text and the access token).
 *
 * @example
 * if (error instanceof FeishuApiError && error.kind === 'rate_limited') await sleep(error.resetMs ?? 1000);
 */
export class FeishuApiError extends Error {
  readonly status: number | undefined;
  readonly code: number | undefined;
  /** From `x-ogw-ratelimit-reset` (seconds), when the response had it. */
  readonly resetMs: number | undefined;
  readonly kind: FeishuFailureKind;

  constructor(fields: { status?: number; code?: number; resetMs?: number; message: string }) {
    super(fields.message);
    this.name = 'FeishuApiError';
    this.status = fields.status;
    this.code = fields.code;
    this.resetMs = fields.resetMs;
    this.kind = classify(fields.status, fields.code);
  }
}

function classify(status: number | undefined, code: number | undefined): FeishuFailureKind {
  if (status === 429 || code === RATE_LIMITED_CODE) return 'rate_limited';
  if (code !== undefined && FORMAT_CODES.has(code)) return 'format';
  if (code !== undefined && GONE_CODES.has(code)) return 'gone';
  if (status === undefined || status >= 500) return 'unknown';
  if (status >= 400) return 'refused';
  return code === undefined ? 'unknown' : 'refused';
}

/**
 * Turn whatever the SDK threw (an HTTP client error with a response, a network error) into a
 * {@link FeishuApiError}, reading only the status, Feishu's code and message, and the rate-limit
 * reset header.
 *
 * @example
 * try { await client.im.v1.message.create(payload); } catch (error) { throw toFeishuApiError(error); }
 */
export function toFeishuApiError(error: unknown): FeishuApiError {
  if (error instanceof FeishuApiError) return error;
  const response = field(error, 'response');
  const status = numberOf(field(response, 'status'));
  const data = field(response, 'data');
  const code = numberOf(field(data, 'code'));
  const msg = field(data, 'msg');
  const reset = numberOf(headerOf(field(response, 'headers'), 'x-ogw-ratelimit-reset'));
  const base =
    typeof msg === 'string' ? msg : error instanceof Error ? error.message : String(error);
  return new FeishuApiError({
    ...(status === undefined ? {} : { status }),
    ...(code === undefined ? {} : { code }),
    ...(reset === undefined ? {} : { resetMs: Math.max(0, reset) * 1000 }),
    message: `${status === undefined ? 'request failed' : `HTTP ${status}`}${code === undefined ? '' : ` code ${code}`}: ${base.slice(0, 300)}`,
  });
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function headerOf(headers: unknown, name: string): unknown {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const get = (headers as { get?: unknown }).get;
  if (typeof get === 'function') {
    const value = (get as (n: string) => unknown).call(headers, name);
    if (value !== undefined && value !== null) return value;
  }
  return (headers as Record<string, unknown>)[name];
}

function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return undefined;
}
