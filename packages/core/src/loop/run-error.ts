import { ProviderError, type ProviderErrorKind } from '../errors.js';
import { describeProviderError } from './error-names.js';
import type { RunError, RunErrorKind } from './run-types.js';
import { loopText } from './strings.js';

/** Every provider error kind is a run error kind (checked by the compiler). */
const providerKinds: Record<ProviderErrorKind, RunErrorKind> = {
  auth: 'auth',
  not_found: 'not_found',
  bad_request: 'bad_request',
  context_length: 'context_length',
  rate_limit: 'rate_limit',
  server: 'server',
  connection: 'connection',
  timeout: 'timeout',
  incomplete_stream: 'incomplete_stream',
  invalid_response: 'invalid_response',
  unknown: 'unknown',
};

/**
 * The {@link RunError} of a model call that failed: a `ProviderError`'s kind and retryability,
 * `unknown` and not retryable for anything else; the message is the same one line the
 * `model.error` event carries (no secrets: providers never put keys in their errors).
 *
 * @example
 * providerRunError(new ProviderError('rate limited', { kind: 'rate_limit', isRetryable: true }));
 * // { kind: 'rate_limit', message: 'rate limited', retryable: true }
 */
export function providerRunError(error: unknown): RunError {
  const provider = error instanceof ProviderError ? error : undefined;
  return {
    kind: (provider && providerKinds[provider.kind]) ?? 'unknown',
    message: describeProviderError(error),
    retryable: provider?.isRetryable ?? false,
  };
}

/**
 * One line that says what failed, for a person: `Model provider error: <message>` for a provider
 * failure, the message alone for a failure of the run itself (`empty_turns`). The CLI prints it
 * and the chat server replies with it.
 *
 * @example
 * if (result.error) console.error(describeRunError(result.error));
 */
export function describeRunError(error: RunError): string {
  return error.kind === 'empty_turns' ? error.message : loopText.providerFailed(error.message);
}
