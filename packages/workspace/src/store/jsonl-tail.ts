import { open } from 'node:fs/promises';

const NEWLINE = 0x0a;
const CHUNK_SIZE = 64 * 1024;

/**
 * The last `limit` lines of `path`, oldest first: each line's text, or `undefined` for a line
 * over `maxLineBytes` bytes, whose bytes are never held. The file is read backwards in 64 KiB
 * chunks, so the cost depends on what is returned, not on the file's size. An oversized line
 * still counts towards `limit`; a final line without a newline is a line; a file that ends with a
 * newline has no empty last line. Lines are cut on bytes before decoding, so a multi-byte
 * character is never split.
 *
 * @throws the `open` error (ENOENT for a missing file).
 *
 * @example
 * const lines = await readTailLines('/state/sessions/k/memory.jsonl', 5, 64 * 1024);
 */
export async function readTailLines(
  path: string,
  limit: number,
  maxLineBytes: number,
): Promise<Array<string | undefined>> {
  const lines: Array<string | undefined> = [];
  if (limit < 1) return lines;
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    // The bytes of the line being assembled, right to left; dropped once it is too long.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let first = true;
    const emit = (): void => {
      // The empty piece after a final newline is not a line.
      if (first && pendingBytes === 0) {
        first = false;
        return;
      }
      first = false;
      lines.push(pendingBytes > maxLineBytes ? undefined : Buffer.concat(pending).toString('utf8'));
      pending = [];
      pendingBytes = 0;
    };
    const keep = (piece: Buffer): void => {
      pendingBytes += piece.length;
      if (pendingBytes > maxLineBytes) pending = [];
      else if (piece.length > 0) pending.unshift(piece);
    };
    let position = size;
    while (position > 0 && lines.length < limit) {
      const length = Math.min(CHUNK_SIZE, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      const { bytesRead } = await handle.read(chunk, 0, length, position);
      let end = bytesRead;
      for (
        // (A negative offset would search from the end of the chunk again.)
        let at = end > 0 ? chunk.lastIndexOf(NEWLINE, end - 1) : -1;
        at !== -1 && lines.length < limit;
        at = at === 0 ? -1 : chunk.lastIndexOf(NEWLINE, at - 1)
      ) {
        keep(chunk.subarray(at + 1, end));
        emit();
        end = at;
      }
      if (lines.length < limit) keep(chunk.subarray(0, end));
    }
    // What is left at the start of the file is its first line.
    if (position === 0 && lines.length < limit) emit();
    return lines.reverse();
  } finally {
    await handle.close();
  }
}
