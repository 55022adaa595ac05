/**
 * @tiny-claw/core/store — for writing a state store (a database, a service): the record schemas a
 * store validates on the way in and out, the record ids, and the rules every implementation
 * shares so each behaves the same — the argument checks, the session record's schema, how memory values are redacted and capped, the plan store over any place that holds two
 * texts, and the order of the trace index. The interfaces themselves (`StateStore` and its parts)
 * are `@tiny-claw/core`'s; `stateStoreContract` in the repository's testkit is the test suite a new
 * store must pass. Not needed to embed an agent.
 *
 * @example
 * import { approvalRecordSchema, checkStoreKey, checkTtlMs } from '@tiny-claw/core/store';
 * const key = checkStoreKey(input.key, 'seen key');
 * const ttlMs = checkTtlMs(input.ttlMs);
 * const record = approvalRecordSchema.parse(JSON.parse(row.body));
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
export { type SessionMeta, sessionMetaSchema } from '../session/session-ref.js';
export {
  approvalFailures,
  approvalRecordSchema,
  approvalStatuses,
  claimantSchema,
  claimTicketSchema,
} from './approval-record.js';
export { checkpointRecordSchema } from './checkpoint-record.js';
export { checkRecordId, recordIdPattern, recordIdSchema } from './record-id.js';
export { SEEN_KEYS_MAX_ENTRIES } from './seen-keys.js';
export { checkStoreKey, checkTtlMs, STORE_KEY_MAX_CHARS } from './store-arguments.js';
export {
  checkTraceEntry,
  checkTraceId,
  compareTraceEntries,
  traceEntrySchema,
  traceIdPattern,
} from './trace-index.js';
