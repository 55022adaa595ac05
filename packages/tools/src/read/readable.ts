import { unicodeBomEncoding } from '../file-kind.js';
import { READ_LIMITS } from './limits.js';

/**
 * What the `read` tool makes of a file's first bytes:
 * - `text`: UTF-8 (with or without BOM; invalid sequences are shown as U+FFFD);
 * - `utf16`: decoded from the UTF-16 its BOM announces;
 * - `binary`: refused — a NUL or too many control bytes, or another encoding's BOM (`encoding`).
 *
 * @example
 * const kind: ByteKind = classifyBytes(head);
 */
export type ByteKind =
  | { kind: 'text' }
  | { kind: 'utf16'; encoding: 'UTF-16LE' | 'UTF-16BE' }
  | { kind: 'binary'; encoding?: string };

/**
 * NUL, or more than 30 % bytes below 9 or in 14..31, within the first 4 KiB.
 *
 * @example
 * looksBinary(Buffer.from('a\0b')); // true
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const window = bytes.subarray(0, READ_LIMITS.sniffBytes);
  if (window.length === 0) return false;
  let control = 0;
  for (const byte of window) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) control += 1;
  }
  return control / window.length > READ_LIMITS.maxControlRatio;
}

/**
 * Classify a file by its first bytes the way `read` does: the BOM first (a UTF-16 file is full
 * of NULs), then the binary sniff after any UTF-8 BOM. The first {@link READ_LIMITS.sniffBytes}
 * bytes (plus 4 for a BOM) are enough.
 *
 * @example
 * classifyBytes(Buffer.from([0xff, 0xfe, 0x68, 0x00])); // { kind: 'utf16', encoding: 'UTF-16LE' }
 */
export function classifyBytes(head: Uint8Array): ByteKind {
  const encoding = unicodeBomEncoding(head);
  if (encoding === 'UTF-16LE' || encoding === 'UTF-16BE') return { kind: 'utf16', encoding };
  if (encoding) return { kind: 'binary', encoding };
  const utf8Bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  return looksBinary(utf8Bom ? head.subarray(3) : head) ? { kind: 'binary' } : { kind: 'text' };
}

/**
 * Why `read` refuses a regular file whatever offset or limit it is called with:
 * `too_large` (over {@link READ_LIMITS.maxFileBytes}) or `binary`.
 *
 * @example
 * const why: ReadRefusal | undefined = readRefusal(head, size);
 */
export type ReadRefusal = 'too_large' | 'binary';

/**
 * Whether `read` would refuse a regular file of `size` bytes starting with `head`, and why; so
 * that a tool asking for a read first can tell when that read can never happen.
 *
 * @example
 * readRefusal(Buffer.from('\0\0'), 2); // 'binary'
 * readRefusal(Buffer.from('hi\n'), 3); // undefined
 */
export function readRefusal(head: Uint8Array, size: number): ReadRefusal | undefined {
  if (size > READ_LIMITS.maxFileBytes) return 'too_large';
  return classifyBytes(head).kind === 'binary' ? 'binary' : undefined;
}
