import { open, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Reading the paths of the submodules (gitlinks) a git index records.
 *
 * `git status` descends into every gitlink whose directory holds a `.git`, and runs git there with
 * that repository's own configuration, so the sandbox has to know them before and after each
 * command. Spawning `git ls-files --stage` would print every tracked file (megabytes in a large
 * repository) on every bash call; the index format is small and stable, so it is read here
 * directly — about 60 lines — and the result is cached by the file's identity.
 */

const GITLINK_MODE = 0o160000;
const ENTRY_MODE_MASK = 0o170000;
/** ctime, mtime (seconds and nanoseconds each), dev, ino, mode, uid, gid, size: 4 bytes each. */
const STAT_BYTES = 40;
/** An index larger than this is not read (gitlinks are then treated as unknown). */
const MAX_INDEX_BYTES = 256 * 1024 * 1024;

/** What reading an index gave: its gitlink paths (relative, `/`-separated), or why not. */
export type IndexGitlinks =
  | {
      readonly kind: 'read';
      readonly gitlinks: readonly string[];
      /** A split index's shared part (`sharedindex.<hash>`), which holds most entries. */
      readonly sharedIndex?: string;
    }
  | { readonly kind: 'absent' }
  | { readonly kind: 'unreadable'; readonly why: string };

interface Cursor {
  offset: number;
}

function readVarint(buffer: Buffer, cursor: Cursor): number {
  // The offset encoding git uses in index v4: 7 bits per byte, each continuation adds one.
  let byte = buffer[cursor.offset++] ?? 0;
  let value = byte & 0x7f;
  while (byte & 0x80) {
    byte = buffer[cursor.offset++] ?? 0;
    value = ((value + 1) << 7) | (byte & 0x7f);
  }
  return value;
}

/**
 * The gitlink paths of an index held in `buffer`, or why it cannot be read. `hashBytes` is 20 for
 * SHA-1 repositories and 32 for SHA-256 ones.
 *
 * @example
 * gitlinksOf(await readFile('.git/index'), 20); // { kind: 'read', gitlinks: ['vendor/lib'] }
 */
export function gitlinksOf(buffer: Buffer, hashBytes: 20 | 32): IndexGitlinks {
  if (buffer.length < 12 || buffer.toString('latin1', 0, 4) !== 'DIRC')
    return { kind: 'unreadable', why: 'not a git index (no DIRC signature)' };
  const version = buffer.readUInt32BE(4);
  if (version < 2 || version > 4)
    return { kind: 'unreadable', why: `index version ${version} is not one git writes` };
  const count = buffer.readUInt32BE(8);
  const cursor: Cursor = { offset: 12 };
  const gitlinks: string[] = [];
  // Paths are compared and cut as bytes: index v4 strips a byte count from the previous path.
  let previous: Buffer = Buffer.alloc(0);
  for (let index = 0; index < count; index += 1) {
    const start = cursor.offset;
    if (start + STAT_BYTES + hashBytes + 2 > buffer.length)
      return { kind: 'unreadable', why: 'the index ends inside an entry' };
    const mode = buffer.readUInt32BE(start + 24);
    const flags = buffer.readUInt16BE(start + STAT_BYTES + hashBytes);
    cursor.offset = start + STAT_BYTES + hashBytes + 2;
    if (version >= 3 && flags & 0x4000) cursor.offset += 2;
    let name: Buffer;
    if (version === 4) {
      const strip = readVarint(buffer, cursor);
      const end = buffer.indexOf(0, cursor.offset);
      if (end < 0 || strip > previous.length)
        return { kind: 'unreadable', why: 'a path in the index is malformed' };
      name = Buffer.concat([
        previous.subarray(0, previous.length - strip),
        buffer.subarray(cursor.offset, end),
      ]);
      cursor.offset = end + 1;
    } else {
      const end = buffer.indexOf(0, cursor.offset);
      if (end < 0) return { kind: 'unreadable', why: 'a path in the index is malformed' };
      name = buffer.subarray(cursor.offset, end);
      // Entries are padded with 1–8 NULs to a multiple of 8 bytes from their start.
      cursor.offset = start + Math.ceil((end - start + 1) / 8) * 8;
    }
    previous = name;
    if ((mode & ENTRY_MODE_MASK) === GITLINK_MODE) gitlinks.push(name.toString('utf8'));
  }
  // Extensions follow the entries: a 4-byte signature and a 4-byte size each, then the checksum.
  let offset = cursor.offset;
  while (offset + 8 <= buffer.length - hashBytes) {
    const signature = buffer.toString('latin1', offset, offset + 4);
    const size = buffer.readUInt32BE(offset + 4);
    if (signature === 'link' && size >= hashBytes) {
      const hash = buffer.toString('hex', offset + 8, offset + 8 + hashBytes);
      if (!/^0+$/.test(hash)) return { kind: 'read', gitlinks, sharedIndex: `sharedindex.${hash}` };
    }
    offset += 8 + size;
  }
  return { kind: 'read', gitlinks };
}

const cache = new Map<string, { identity: string; result: IndexGitlinks }>();

async function hashBytesOf(commonDir: string): Promise<20 | 32> {
  try {
    const handle = await open(path.join(commonDir, 'config'), 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
      const text = buffer.toString('utf8', 0, bytesRead);
      return /^\s*objectformat\s*=\s*sha256\s*$/im.test(text) ? 32 : 20;
    } finally {
      await handle.close();
    }
  } catch {
    return 20;
  }
}

async function readWhole(file: string, size: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/**
 * The identity of a file as far as "has it changed" goes, or undefined when it is missing.
 *
 * @example
 * await fileIdentity('.git/index'); // '2049:1234:5678:1700000000000'
 */
export async function fileIdentity(file: string): Promise<string | undefined> {
  const info = await stat(file, { bigint: true }).catch(() => undefined);
  if (info === undefined) return undefined;
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/**
 * The gitlinks recorded in `<gitDir>/index` (and its shared index when the index is split),
 * cached while the file is unchanged.
 *
 * @example
 * await indexGitlinks('/repo/.git', '/repo/.git'); // { kind: 'read', gitlinks: [] }
 */
export async function indexGitlinks(gitDir: string, commonDir: string): Promise<IndexGitlinks> {
  const file = path.join(gitDir, 'index');
  const info = await stat(file, { bigint: true }).catch(() => undefined);
  if (info === undefined || !info.isFile()) return { kind: 'absent' };
  if (info.size > BigInt(MAX_INDEX_BYTES))
    return { kind: 'unreadable', why: `the index is larger than ${MAX_INDEX_BYTES} bytes` };
  const identity = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  const cached = cache.get(file);
  if (cached?.identity === identity) return cached.result;
  const hashBytes = await hashBytesOf(commonDir);
  let result: IndexGitlinks;
  try {
    const buffer = await readWhole(file, Number(info.size));
    result = gitlinksOf(buffer, hashBytes);
    // A split index keeps most entries in its shared part; the gitlinks there count too (some
    // may have been removed since: protecting those as well does no harm).
    if (result.kind === 'read' && result.sharedIndex !== undefined) {
      const shared = path.join(gitDir, result.sharedIndex);
      const sharedInfo = await stat(shared).catch(() => undefined);
      if (sharedInfo?.isFile() && sharedInfo.size <= MAX_INDEX_BYTES) {
        const base = gitlinksOf(await readWhole(shared, sharedInfo.size), hashBytes);
        if (base.kind === 'read')
          result = { kind: 'read', gitlinks: [...new Set([...base.gitlinks, ...result.gitlinks])] };
      }
    }
  } catch (error) {
    result = { kind: 'unreadable', why: error instanceof Error ? error.message : String(error) };
  }
  cache.set(file, { identity, result });
  return result;
}
