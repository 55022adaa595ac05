/**
 * @tiny-claw/workspace/files — how tiny-claw writes and reads its files, so every package that keeps
 * a file does it the same way: atomic writes (temp file, fsync, rename, directory fsync; 0600 files
 * in 0700 directories), writes confined to a directory even against a directory swapped for a
 * symlink mid-write, schema-checked JSON reads that set a corrupt file aside as
 * `<name>.unreadable-<time>`, JSONL appends in one write under a per-file lock, per-path locks
 * within a process, and the session directory of a state dir.
 *
 * @example
 * import { sessionDirectory, writeJsonAtomic } from '@tiny-claw/workspace/files';
 * await writeJsonAtomic(join(sessionDirectory(stateDir, key), 'record.json'), record);
 *
 * @module
 */

export { type AtomicWriteOptions, writeFileAtomic, writeJsonAtomic } from './atomic-write.js';
export {
  ConfinedWriteError,
  type ConfinedWriteOptions,
  type ConfinedWriteReason,
  writeFileConfined,
} from './confined-write.js';
export { type AppendJsonLinesOptions, appendJsonLines } from './jsonl-append.js';
export { withPathLock } from './path-lock.js';
export { QuarantinedFileError, readJsonFile } from './read-json.js';
export { sessionDirectory } from './session-directory.js';
