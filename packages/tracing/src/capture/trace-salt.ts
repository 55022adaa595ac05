import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '@tiny-claw/core';

/**
 * File name of the per-install salt inside the state directory.
 *
 * @example
 * join(stateDir, TRACE_SALT_FILE); // '<stateDir>/trace-salt'
 */
export const TRACE_SALT_FILE = 'trace-salt';

const SALT_BYTES = 32;

/**
 * The per-install salt of `<stateDir>/trace-salt` (32 random bytes, hex, file mode 0600), created
 * on first use and read afterwards. Creation links a fully written temp file into place, so two
 * processes starting at once agree on one salt and nobody ever reads a half-written file.
 *
 * Synchronous on purpose: it runs once per process, when the first traced run starts.
 *
 * @throws Error when the file can be neither read nor created, or holds something other than a
 * salt; the caller falls back to a process-local salt and warns.
 *
 * @example
 * const salt = loadTraceSalt('/home/me/.tiny-claw'); // 32 bytes
 */
export function loadTraceSalt(stateDir: string): Uint8Array {
  const path = join(stateDir, TRACE_SALT_FILE);
  const existing = readSalt(path);
  if (existing) return existing;
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const temp = `${path}.tmp-${randomBytes(6).toString('hex')}`;
  try {
    writeFileSync(temp, `${randomBytes(SALT_BYTES).toString('hex')}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
    chmodSync(temp, 0o600);
    try {
      linkSync(temp, path);
    } catch (error) {
      // Another process won the race; its salt is the one to use.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  } finally {
    rmSync(temp, { force: true });
  }
  const created = readSalt(path);
  if (!created) throw new Error(`${path} disappeared while it was being created`);
  return created;
}

function readSalt(path: string): Uint8Array | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`could not read ${path}: ${errorMessage(error)}`);
  }
  const hex = text.trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    // Never replaced silently: hashes in existing traces were made with it.
    throw new Error(`${path} does not hold a 64-hex-digit salt; move it aside to create a new one`);
  }
  return Buffer.from(hex, 'hex');
}
