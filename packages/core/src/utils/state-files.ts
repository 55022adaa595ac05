/**
 * The state-file primitives every package writes through: atomic writes (temp file, fsync,
 * rename, 0600 files in 0700 directories), writes confined to a directory even against a swapped
 * symlink, schema-checked reads that quarantine corrupt files, JSONL appends, per-path locks, and
 * the session directory layout of a state dir.
 *
 * @example
 * import { sessionDirectory, writeJsonAtomic } from '@tiny-claw/core/utils';
 * await writeJsonAtomic(join(sessionDirectory(stateDir, key), 'record.json'), record);
 *
 * @module
 */

export {
  normalizeSessionPart,
  sessionDirectory,
  sessionKey,
  validateSessionKey,
  workdirHash,
} from '../session/session-key.js';
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
