import { createHash } from 'node:crypto';

/**
 * What the ledger remembers about a file at the time it was read. mtime alone is not enough
 * (1 ms resolution, and tools like `touch -r` or a fast rewrite keep it), so size and a content
 * hash are compared too.
 *
 * @example
 * const state: FileFingerprint = { mtimeMs: 1732924800123.5, size: 42, sha256: 'e3b0…' };
 */
export interface FileFingerprint {
  mtimeMs: number;
  size: number;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
}

/**
 * Fingerprint file bytes together with the stat taken when they were read.
 *
 * @example
 * const bytes = await readFile(abs);
 * const state = fingerprintOf(bytes, await stat(abs));
 */
export function fingerprintOf(
  bytes: Uint8Array,
  stats: { mtimeMs: number; size: number },
): FileFingerprint {
  return {
    mtimeMs: stats.mtimeMs,
    size: stats.size,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/**
 * True when two fingerprints describe the same file state.
 *
 * @example
 * sameFingerprint(a, { ...a }); // true
 */
export function sameFingerprint(a: FileFingerprint, b: FileFingerprint): boolean {
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.sha256 === b.sha256;
}
