/**
 * Limits of the `read` tool.
 *
 * @example
 * if (stats.size > READ_LIMITS.maxFileBytes) console.log('too large for read');
 */
export const READ_LIMITS = {
  /** Files larger than this are refused without being read. */
  maxFileBytes: 20 * 1024 * 1024,
  /** Lines longer than this (in UTF-16 code units) are cut with a marker. */
  maxLineChars: 2000,
  /** Upper bound on the bytes of one tool output (lines, footer and notes). */
  maxOutputBytes: 50 * 1024,
  /** Default `limit` (lines per call). */
  defaultLimit: 2000,
  /** Bytes inspected by the binary sniff. */
  sniffBytes: 4096,
  /** Share of control bytes in the sniff window above which a file counts as binary. */
  maxControlRatio: 0.3,
} as const;
