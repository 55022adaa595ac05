/** What a non-regular file is, for refusals ("… is a FIFO (named pipe)"). */
export function describeFileKind(stats: {
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/**
 * The UTF-16/32 encoding a byte-order mark announces (UTF-8's BOM is not reported: it is text).
 *
 * @example
 * unicodeBomEncoding(new Uint8Array([0xff, 0xfe, 0x68, 0x00])); // 'UTF-16LE'
 */
export function unicodeBomEncoding(bytes: Uint8Array): string | undefined {
  const [a, b, c, d] = bytes;
  if (a === 0xff && b === 0xfe && c === 0x00 && d === 0x00) return 'UTF-32LE';
  if (a === 0x00 && b === 0x00 && c === 0xfe && d === 0xff) return 'UTF-32BE';
  if (a === 0xff && b === 0xfe) return 'UTF-16LE';
  if (a === 0xfe && b === 0xff) return 'UTF-16BE';
  return undefined;
}
