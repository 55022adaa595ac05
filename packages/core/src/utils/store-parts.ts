/**
 * What every state store implementation shares, so a store on disk, in memory or in a database
 * keeps the same rules: the argument checks, session keys and the session record's schema, how
 * memory values are redacted and capped, the plan store over any place that can hold two texts,
 * and the order of the trace index. (Writing files is `@tiny-claw/workspace/files`.)
 *
 * @example
 * import { checkStoreKey, checkTtlMs } from '@tiny-claw/core/utils';
 * const key = checkStoreKey(input.key, 'seen key');
 * const ttlMs = checkTtlMs(input.ttlMs);
 *
 * @module
 */

export {
  memoryPlanFiles,
  PLAN_FILE,
  type PlanFileAccess,
  type PlanFileName,
  PlanFileStore,
  planSnapshot,
  TODO_FILE,
} from '../plan/plan-files.js';
export { MEMORY_MAX_LINES, MEMORY_VALUE_MAX_CHARS, memoryValue } from '../session/memory-value.js';
export {
  normalizeSessionPart,
  sessionKey,
  validateSessionKey,
  workdirHash,
} from '../session/session-key.js';
export { type SessionMeta, sessionMetaSchema } from '../session/session-ref.js';
export { isErrnoError } from '../store/errno.js';
export { checkStoreKey, checkTtlMs, STORE_KEY_MAX_CHARS } from '../store/store-arguments.js';
export {
  checkTraceEntry,
  checkTraceId,
  compareTraceEntries,
  traceIdPattern,
} from '../store/trace-index.js';
