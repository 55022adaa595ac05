import { errorMessage, ProviderError, TinyClawError } from '../errors.js';

/**
 * A short machine name for an error, for trace attributes (never its message).
 *
 * @example
 * errorTypeOf(new ProviderError('x', { kind: 'rate_limit' })); // 'rate_limit'
 */
export function errorTypeOf(error: unknown): string {
  if (error instanceof ProviderError) return error.kind;
  if (error instanceof Error && /^[A-Za-z_][\w.]*$/.test(error.name)) return error.name;
  return 'unknown';
}

/**
 * One line for a provider failure: our own errors already say what happened; anything else gets
 * its class name in front.
 *
 * @example
 * describeProviderError(new TypeError('fetch failed')); // 'TypeError: fetch failed'
 */
export function describeProviderError(error: unknown): string {
  if (TinyClawError.isInstance(error)) return error.message;
  return `${error instanceof Error ? error.name : 'Error'}: ${errorMessage(error)}`;
}
