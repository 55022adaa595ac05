import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { ConfigurationError } from '../errors.js';

const MAX_SESSION_NAME_LENGTH = 100;
// NAME_MAX of common filesystems; a key is one directory name.
const MAX_SESSION_KEY_BYTES = 255;

/**
 * Turn a free-form name or id into a safe, stable key part: trimmed, lower-case, Unicode letters
 * and digits plus `-` and `_`; anything else becomes `-`; `default` when nothing is left.
 *
 * @example
 * normalizeSessionPart('  Debug Login '); // 'debug-login'
 * normalizeSessionPart('***'); // 'default'
 */
export function normalizeSessionPart(value: string): string {
  // NFC first, so a composed and a decomposed "é" name the same session.
  const normalized = value
    .normalize('NFC')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_-]/gu, '-')
    .replace(/^-+|-+$/g, '');
  return normalized === '' ? 'default' : normalized;
}

/**
 * First 12 hex chars of the sha256 of the absolute workdir, so the same session name in two
 * repositories gives two sessions. Pass a real path (symlinks resolved) for a stable result.
 *
 * @example
 * workdirHash('/home/me/repo'); // e.g. '1a2b3c4d5e6f'
 */
export function workdirHash(workdir: string): string {
  return createHash('sha256').update(resolve(workdir)).digest('hex').slice(0, 12);
}

/**
 * `<source>-<workdir hash>-<external id>`, each part normalized.
 *
 * @example
 * sessionKey('cli', '/home/me/repo', 'Debug Login'); // 'cli-1a2b3c4d5e6f-debug-login'
 */
export function sessionKey(source: string, workdir: string, externalId: string): string {
  return `${normalizeSessionPart(source)}-${workdirHash(workdir)}-${normalizeSessionPart(externalId)}`;
}

/**
 * Check a session name given by a person (for example `--session`) and return it unchanged.
 *
 * @throws ConfigurationError when it is longer than 100 characters or contains control characters.
 *
 * @example
 * validateSessionName('debug login'); // 'debug login'
 */
export function validateSessionName(name: string): string {
  const length = [...name].length;
  if (length > MAX_SESSION_NAME_LENGTH) {
    throw new ConfigurationError(
      `Invalid session name ${preview(name)}: it is ${length} characters long; a session name may ` +
        `have at most ${MAX_SESSION_NAME_LENGTH} characters.`,
    );
  }
  if (/\p{Cc}/u.test(name)) {
    throw new ConfigurationError(
      `Invalid session name ${preview(name)}: a session name may not contain control characters ` +
        '(newlines, tabs, escape codes).',
    );
  }
  return name;
}

/**
 * Check that `key` is a safe single directory name before it is joined into a path: lower-case
 * Unicode letters and digits, `-` and `_` only (so no `/`, `\`, `.` or `..`), at most 255 bytes.
 *
 * @throws ConfigurationError naming the key and the rule.
 *
 * @example
 * validateSessionKey('cli-1a2b3c4d5e6f-default'); // returns the key
 * validateSessionKey('../etc'); // throws
 */
export function validateSessionKey(key: string): string {
  // Lower-case only: on case-insensitive filesystems `Cli-…` and `cli-…` would share a directory.
  if (!/^[\p{L}\p{N}_-]+$/u.test(key) || key !== key.toLowerCase()) {
    throw new ConfigurationError(
      `Invalid session key ${preview(key)}: a key may contain only lower-case letters, digits, ` +
        '"-" and "_".',
    );
  }
  if (Buffer.byteLength(key, 'utf8') > MAX_SESSION_KEY_BYTES) {
    throw new ConfigurationError(
      `Invalid session key ${preview(key)}: it is longer than ${MAX_SESSION_KEY_BYTES} bytes; ` +
        'use a shorter session name.',
    );
  }
  return key;
}

/** JSON-quoted so control characters are visible, cut so a huge value does not flood the terminal. */
function preview(value: string): string {
  const chars = [...value];
  return chars.length > 60
    ? `${JSON.stringify(chars.slice(0, 60).join(''))}…`
    : JSON.stringify(value);
}
