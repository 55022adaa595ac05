/**
 * The state-file primitives every package writes through: atomic writes (temp file, fsync,
 * rename, 0600 files in 0700 directories), writes confined to a directory even against a swapped
 * symlink, schema-checked reads that quarantine corrupt files, JSONL appends, per-path locks, and
 * the session directory layout of a state dir. Also what every state store implementation shares,
 * so each holds the same rules: the argument checks, the session record's schema, how memory
 * values are redacted and capped, the plan store over any file access, and the trace index order.
 *
 * @example
 * import { sessionDirectory, writeJsonAtomic } from '@tiny-claw/core/utils';
 * await writeJsonAtomic(join(sessionDirectory(stateDir, key), 'record.json'), record);
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
  sessionDirectory,
  sessionKey,
  validateSessionKey,
  workdirHash,
} from '../session/session-key.js';
export { type SessionMeta, sessionMetaSchema } from '../session/session-ref.js';
export {
  type AtomicWriteOptions,
  writeFileAtomic,
  writeJsonAtomic,
} from '../store/atomic-write.js';
export {
  ConfinedWriteError,
  type ConfinedWriteOptions,
  type ConfinedWriteReason,
  writeFileConfined,
} from '../store/confined-write.js';
export { isErrnoError } from '../store/errno.js';
export { type AppendJsonLinesOptions, appendJsonLines } from '../store/jsonl-append.js';
export { withPathLock } from '../store/path-lock.js';
export { QuarantinedFileError, readJsonFile } from '../store/read-json.js';
export { checkStoreKey, checkTtlMs, STORE_KEY_MAX_CHARS } from '../store/store-arguments.js';
export {
  checkTraceEntry,
  checkTraceId,
  compareTraceEntries,
  traceIdPattern,
} from '../store/trace-index.js';
