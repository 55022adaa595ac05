import { constants as fsConstants, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { type OpenedTarget, openedPlace } from '../file-state/opened-path.js';

/**
 * Outcome of {@link loadFileBytes}.
 *
 * @example
 * const loaded = await loadFileBytes(abs, 20 * 1024 * 1024);
 * if (loaded.ok) console.log(loaded.bytes.length, loaded.stats.mode);
 */
export type LoadedFile =
  | { ok: true; bytes: Buffer; stats: Stats }
  | {
      ok: false;
      problem: 'not_found' | 'symlink' | 'outside' | 'not_regular' | 'too_large';
      stats?: Stats;
    }
  | { ok: false; problem: 'io_error'; code: string };

/**
 * Read a whole regular file through one handle, refusing it if it is (or grew) larger than
 * `maxBytes`. O_NOFOLLOW: the path guard returned a canonical path, so a symlink here means the
 * file was swapped under us. O_NONBLOCK: a file swapped for a FIFO cannot hang the open; the
 * fstat then refuses it. The returned stats are the handle's, i.e. of the bytes returned.
 * O_NOFOLLOW covers only the last component, so the opened descriptor is also checked to lead
 * inside `target.root` (`outside` when a directory on the way became a symlink meanwhile): the
 * bytes feed messages shown to the model, such as the closest region of a failed match.
 *
 * @example
 * const loaded = await loadFileBytes({ root: '/repo', path: '/repo/src/a.ts' }, 20 * 1024 * 1024);
 */
export async function loadFileBytes(target: OpenedTarget, maxBytes: number): Promise<LoadedFile> {
  const absPath = target.path;
  const flags =
    fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (fsConstants.O_NOFOLLOW ?? 0);
  let handle: FileHandle;
  try {
    handle = await open(absPath, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, problem: 'not_found' };
    if (code === 'ELOOP') return { ok: false, problem: 'symlink' };
    return { ok: false, problem: 'io_error', code };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { ok: false, problem: 'not_regular', stats };
    if (stats.size > maxBytes) return { ok: false, problem: 'too_large', stats };
    const chunks: Buffer[] = [];
    let total = 0;
    // One read sized to the file (+1 to notice growth); later reads only catch growth.
    let chunkSize = Math.min(stats.size + 1, maxBytes + 1);
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.max(chunkSize, 1));
      chunkSize = 64 * 1024;
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return { ok: false, problem: 'too_large' };
    }
    if ((await openedPlace(handle, target)) === 'outside') return { ok: false, problem: 'outside' };
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
    // Re-stat so the fingerprint's mtime/size describe exactly these bytes if it grew meanwhile.
    const after = total === stats.size ? stats : await handle.stat();
    return { ok: true, bytes, stats: after };
  } catch (error) {
    return {
      ok: false,
      problem: 'io_error',
      code: (error as NodeJS.ErrnoException).code ?? String(error),
    };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
