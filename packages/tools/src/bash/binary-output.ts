import { READ_LIMITS } from '../read/limits.js';
import { looksBinary } from '../read/readable.js';
import type { OutputSnapshot } from './output-buffer.js';

/** Bytes shown in hex at the start of a binary stream's note: enough to recognise a magic number. */
const HEX_HEAD_BYTES = 16;

/**
 * Whether `bytes` (the first or last kilobytes of a stream) are not text: the `read` tool's sniff
 * (a NUL, or too many control bytes), or as large a share of bytes that are not UTF-8 — random
 * bytes have few NULs once filtered, yet decode to a run of U+FFFD that tells the model nothing.
 *
 * @example
 * looksLikeBinaryOutput(Buffer.from('hello\n')); // false
 * looksLikeBinaryOutput(Buffer.from([0xde, 0xad, 0xbe, 0xef])); // true
 */
export function looksLikeBinaryOutput(bytes: Uint8Array): boolean {
  const window = bytes.subarray(0, READ_LIMITS.sniffBytes);
  if (window.length === 0) return false;
  if (looksBinary(window)) return true;
  return replacedCharacters(window) / window.length > READ_LIMITS.maxControlRatio;
}

/**
 * Whether a captured stream is binary, judged on its first and (when something was dropped in
 * between) its last kilobytes.
 *
 * @example
 * if (isBinaryStream(buffer.snapshot())) console.log(binaryOutputNote(buffer.snapshot()));
 */
export function isBinaryStream(snapshot: OutputSnapshot): boolean {
  if (looksLikeBinaryOutput(snapshot.head)) return true;
  const tail = snapshot.tail;
  return tail.length > 0 && looksLikeBinaryOutput(tail.subarray(-READ_LIMITS.sniffBytes));
}

/**
 * What the model reads instead of a binary stream: its size and its first bytes in hex.
 *
 * @example
 * binaryOutputNote(snapshot); // '[binary output: 4096 bytes, not shown; starts with 7f 45 4c 46 …]'
 */
export function binaryOutputNote(snapshot: OutputSnapshot): string {
  const first = [...snapshot.head.subarray(0, HEX_HEAD_BYTES)]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join(' ');
  const more = snapshot.totalBytes > HEX_HEAD_BYTES ? ' …' : '';
  return `[binary output: ${snapshot.totalBytes} bytes, not shown; starts with ${first}${more}]`;
}

/** How many characters decoding `bytes` as UTF-8 had to replace with U+FFFD. */
function replacedCharacters(bytes: Uint8Array): number {
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  let replaced = 0;
  for (let i = text.indexOf('\uFFFD'); i !== -1; i = text.indexOf('\uFFFD', i + 1)) replaced += 1;
  return replaced;
}
