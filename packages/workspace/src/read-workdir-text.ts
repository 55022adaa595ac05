import { constants, type Stats } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { contextWarnings } from './strings.js';

/** Outcome of reading a project text file (AGENTS.md, SKILL.md) from inside the workdir. */
export type WorkdirTextResult =
  | { status: 'ok'; text: string; truncated: boolean; realPath: string }
  | { status: 'missing' }
  | {
      status: 'skipped';
      reason: 'outside_workdir' | 'not_regular_file' | 'not_utf8' | 'unreadable';
      detail?: string;
    };

// O_NONBLOCK keeps a FIFO swapped in after the check from blocking the run; O_NOFOLLOW refuses a
// final symlink swapped in after realpath. Both are absent on Windows, hence the fallbacks.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** A UTF-8 code point takes at most 4 bytes, so this many bytes always hold `maxChars` characters. */
const bytesFor = (maxChars: number): number => maxChars * 4 + 4;

/**
 * True when `target` is `root` or lies below it, compared by path component (never string prefix:
 * `/repo-evil` is not inside `/repo`). Both paths must already be absolute and resolved.
 *
 * @example
 * isInsideDir('/repo', '/repo/AGENTS.md'); // true
 * isInsideDir('/repo', '/repo-evil/AGENTS.md'); // false
 */
export function isInsideDir(root: string, target: string): boolean {
  const rel = relative(root, target);
  if (rel === '') return true;
  return !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/**
 * Read at most `maxChars` characters (code points, CRLF/CR normalised to LF, BOM dropped) of a
 * UTF-8 text file, only when its real path stays inside `realRoot` (the workdir's realpath). Never
 * throws: a missing file is `missing`, anything else that prevents reading is `skipped`. Reads at
 * most `4 × maxChars + 4` bytes, so a huge file costs no more than a small one.
 *
 * @example
 * const result = await readWorkdirText('/repo', '/repo/AGENTS.md', 32_000);
 * if (result.status === 'ok') console.log(result.text, result.truncated);
 */
export async function readWorkdirText(
  realRoot: string,
  filePath: string,
  maxChars: number,
): Promise<WorkdirTextResult> {
  let realPath: string;
  try {
    realPath = await realpath(filePath);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing' };
    return { status: 'skipped', reason: 'unreadable', detail: code ?? String(error) };
  }
  if (!isInsideDir(realRoot, realPath)) return { status: 'skipped', reason: 'outside_workdir' };

  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(realPath, OPEN_FLAGS);
    const stats: Stats = await handle.stat();
    if (!stats.isFile()) return { status: 'skipped', reason: 'not_regular_file' };
    const want = Math.min(stats.size, bytesFor(maxChars));
    const buffer = Buffer.alloc(want);
    let filled = 0;
    while (filled < want) {
      const { bytesRead } = await handle.read(buffer, filled, want - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const partial = filled < stats.size;
    let decoded: string;
    try {
      // `stream` tolerates a character cut at the byte limit; a real encoding error still throws.
      decoded = new TextDecoder('utf-8', { fatal: true }).decode(buffer.subarray(0, filled), {
        stream: partial,
      });
    } catch {
      return { status: 'skipped', reason: 'not_utf8' };
    }
    const normalised = decoded.replace(/\r\n?/g, '\n');
    const cut = cutToCodePoints(normalised, maxChars);
    return { status: 'ok', text: cut.text, truncated: cut.cut || partial, realPath };
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP') return { status: 'skipped', reason: 'outside_workdir' };
    if (code === 'EISDIR') return { status: 'skipped', reason: 'not_regular_file' };
    return { status: 'skipped', reason: 'unreadable', detail: code ?? String(error) };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * The first `maxChars` code points of `text` (a surrogate pair is never split), and whether
 * anything was cut. Code points, not UTF-16 units, so limits match the original's character count.
 *
 * @example
 * cutToCodePoints('héllo', 2); // { text: 'hé', cut: true }
 */
export function cutToCodePoints(text: string, maxChars: number): { text: string; cut: boolean } {
  // Code points never outnumber UTF-16 units, so a short string needs no scan.
  if (text.length <= maxChars) return { text, cut: false };
  let units = 0;
  let points = 0;
  while (units < text.length && points < maxChars) {
    const code = text.charCodeAt(units);
    const next = text.charCodeAt(units + 1);
    const pair = code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
    units += pair ? 2 : 1;
    points += 1;
  }
  return units >= text.length ? { text, cut: false } : { text: text.slice(0, units), cut: true };
}

/**
 * Turn a skipped read into its warning.
 *
 * @example
 * warnings.push(skippedWarning('AGENTS.md', result));
 */
export function skippedWarning(
  file: string,
  read: Extract<WorkdirTextResult, { status: 'skipped' }>,
): string {
  switch (read.reason) {
    case 'outside_workdir':
      return contextWarnings.outsideWorkdir(file);
    case 'not_regular_file':
      return contextWarnings.notRegularFile(file);
    case 'not_utf8':
      return contextWarnings.notUtf8(file);
    case 'unreadable':
      return contextWarnings.unreadable(file, read.detail ?? 'unknown error');
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
