/**
 * @tiny-claw/core/utils — building blocks the tiny-claw packages share (providers, tracing),
 * kept in one place so each exists once: stable JSON, secret rules and the secret-name rule, redaction and scrubbing, the
 * retry-after policy and the retry loop every provider runs, an abortable sleep, the stream idle
 * watchdog, response pricing, session keys and the errno check. Not the agent API:
 * that is `@tiny-claw/core`.
 *
 * @example
 * import { IdleWatchdog, retryDelayMs, scrubSecrets, sleep } from '@tiny-claw/core/utils';
 *
 * @module
 */

export {
  normalizeSessionPart,
  sessionKey,
  validateSessionKey,
  workdirHash,
} from '../session/session-key.js';
export { isErrnoError } from '../store/errno.js';
export { type AttemptWatch, watchAttempt } from './attempt-watch.js';
export { type ClosestNameOptions, closestName, editDistance } from './closest-name.js';
export { escapedSnippet } from './escaped-snippet.js';
export { IdleWatchdog, withActivity, withBodyActivity } from './idle-watchdog.js';
export { oneLine } from './one-line.js';
export { httpUrl, isPriceTable, nonEmptyText, parseOptions, wholeNumber } from './parse-options.js';
export { redactSecrets } from './redact-secrets.js';
export {
  backoffMs,
  honouredRetryAfterMs,
  MAX_HONOURED_RETRY_AFTER_MS,
  MAX_RETRY_DELAY_MS,
  parseRetryAfterMs,
  retryDelayMs,
} from './retry-after.js';
export { REDACTED, type ScrubOptions, scrubSecrets } from './scrub-secrets.js';
export {
  IncompleteStream,
  retryPolicy,
  type SdkErrors,
  streamRetryPolicy,
} from './sdk-retry-policy.js';
export { isSecretName } from './secret-names.js';
export {
  applySecretRules,
  type SecretRule,
  secretRules,
  shannonEntropy,
} from './secret-rules.js';
export { sleep } from './sleep.js';
export { stableJson } from './stable-json.js';
export { withCost } from './with-cost.js';
export {
  DEFAULT_MAX_RETRIES,
  isRetryableStatus,
  type RetryOptions,
  withRetries,
} from './with-retries.js';
