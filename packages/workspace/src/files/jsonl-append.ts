import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { errorMessage, StateError } from '@tiny-claw/core';
import { ensureDir } from './atomic-write.js';
// Keyed by resolved path, so two writers on one file take turns. In-process only; across
// processes O_APPEND at least keeps every write at the end of the file.
import { withPathLock } from './path-lock.js';

/**
 * Options of {@link appendJsonLines}.
 *
 * @example
 * const options: AppendJsonLinesOptions = { label: 'the memory file' };
 */
export interface AppendJsonLinesOptions {
  /** Names the file in error messages, e.g. `the memory file`. Default `the JSONL file`. */
  label?: string;
}

const NEWLINE = 0x0a;

/**
 * Append each of `values` as one JSON line to `path`, in one write and one fsync, so the lines of
 * one call land together and whole. Appends to the same file from this process take turns. The
 * directory is created 0700 and the file 0600 (tightened if others could read it: these files
 * hold private data). A truncated last line left by a crash is first closed with a newline: its
 * bytes stay in the file (nothing is ever removed) but are no longer glued to the new lines.
 *
 * @throws StateError naming the file when a value has no JSON form or the write fails; a failed
 * append does not block later ones.
 *
 * @example
 * await appendJsonLines(join(stateDir, 'usage', 'model-calls.jsonl'), [event], { label: 'the usage file' });
 */
export async function appendJsonLines(
  path: string,
  values: readonly unknown[],
  options: AppendJsonLinesOptions = {},
): Promise<void> {
  const label = options.label ?? 'the JSONL file';
  const file = resolve(path);
  if (values.length === 0) return;
  const text = values.map((value) => `${toJsonLine(value, label, file)}\n`).join('');
  await withPathLock(file, () => appendNow(file, text, label));
}

function toJsonLine(value: unknown, label: string, file: string): string {
  let line: string | undefined;
  try {
    line = JSON.stringify(value);
  } catch (error) {
    throw new StateError(`Could not append to ${label} ${file}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  if (line === undefined) {
    throw new StateError(
      `Could not append to ${label} ${file}: a value has no JSON representation`,
    );
  }
  return line;
}

async function appendNow(file: string, text: string, label: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    await ensureDir(dirname(file));
    handle = await open(file, 'a+', 0o600);
    const { size, mode } = await handle.stat();
    if ((mode & 0o077) !== 0) await handle.chmod(0o600);
    const repair = size > 0 && (await lastByte(handle, size)) !== NEWLINE ? '\n' : '';
    await handle.writeFile(repair + text);
    await handle.sync();
  } catch (error) {
    throw new StateError(`Could not append to ${label} ${file}: ${errorMessage(error)}`, {
      cause: error,
    });
  } finally {
    await handle?.close().catch(() => {});
  }
}

async function lastByte(handle: FileHandle, size: number): Promise<number | undefined> {
  const byte = Buffer.alloc(1);
  const { bytesRead } = await handle.read(byte, 0, 1, size - 1);
  return bytesRead === 1 ? byte[0] : undefined;
}
