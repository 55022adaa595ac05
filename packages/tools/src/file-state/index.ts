/**
 * Shared file state for the file tools: the per-run read ledger (read before change, unchanged
 * since), content fingerprints and the per-file lock that serialises changes of one file.
 *
 * @example
 * import { ReadLedger, fingerprintOf, withFileLock } from './file-state/index.js';
 */
export { withFileLock } from './file-lock.js';
export { type FileFingerprint, fingerprintOf, sameFingerprint } from './fingerprint.js';
export {
  ReadLedger,
  type ReadLedgerOptions,
  type ReadLedgerVerdict,
} from './read-ledger.js';
