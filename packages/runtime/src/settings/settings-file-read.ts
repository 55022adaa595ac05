import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { ConfigurationError } from '@tiny-claw/core';

/**
 * The largest settings file tiny-claw reads: 1 MiB, far more than any list of `KEY=VALUE` lines.
 *
 * @example
 * SETTINGS_FILE_MAX_BYTES; // → 1048576
 */
export const SETTINGS_FILE_MAX_BYTES = 1024 * 1024;

/**
 * A settings file that exists but cannot be used: not a regular file (a named pipe, a device, a
 * directory …), larger than {@link SETTINGS_FILE_MAX_BYTES}, or unreadable. `reason` says what is
 * wrong without the path, so a front end can name the file the way the user gave it.
 *
 * @example
 * try { await readSettingsFile(path); } catch (e) { if (e instanceof SettingsFileError) console.error(e.reason); }
 */
export class SettingsFileError extends ConfigurationError {
  /** The file as it was opened. */
  readonly path: string;
  /** What is wrong, e.g. `a named pipe (FIFO), not a regular file; …`. */
  readonly reason: string;

  constructor(path: string, reason: string, options: { cause?: unknown } = {}) {
    super(`Cannot use the settings file ${path}: ${reason}.`, options);
    this.path = path;
    this.reason = reason;
  }
}

const REGULAR_ONLY = 'settings are read only from a regular file: name the file itself';

function kindOf(info: Stats): string {
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  if (info.isDirectory()) return 'a directory';
  return 'a special file';
}

function tooLarge(path: string, size: string): SettingsFileError {
  return new SettingsFileError(
    path,
    `it is ${size}, over the 1 MiB (${SETTINGS_FILE_MAX_BYTES}-byte) limit for a settings file; ` +
      'a settings file holds KEY=VALUE lines, so check that this is the right file',
  );
}

/**
 * The bytes of a settings file, or `undefined` when there is none. The file is opened without
 * blocking (a named pipe with no writer cannot hold tiny-claw up) and the opened descriptor is
 * inspected, so what is read is what was checked even if the path is swapped meanwhile: only a
 * regular file of at most {@link SETTINGS_FILE_MAX_BYTES} is read.
 *
 * @throws SettingsFileError (a ConfigurationError, exit code 78) for a file that is not regular,
 * is too large, or cannot be read.
 * @example
 * const bytes = await readSettingsFile('/home/me/.config/tiny-claw/.env'); // undefined if absent
 */
export async function readSettingsFile(path: string): Promise<Buffer | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    const reason = error instanceof Error ? error.message : String(error);
    throw new SettingsFileError(path, `it cannot be read (${reason})`, { cause: error });
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      const kind = kindOf(info);
      throw new SettingsFileError(path, `it is ${kind}, not a regular file; ${REGULAR_ONLY}`);
    }
    if (info.size > SETTINGS_FILE_MAX_BYTES) throw tooLarge(path, `${info.size} bytes`);
    // Read to the end rather than trusting the size: a file that grew since fstat is caught too.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > SETTINGS_FILE_MAX_BYTES)
        throw tooLarge(path, `more than ${SETTINGS_FILE_MAX_BYTES} bytes`);
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    if (error instanceof SettingsFileError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new SettingsFileError(path, `it cannot be read (${reason})`, { cause: error });
  } finally {
    await handle.close();
  }
}
