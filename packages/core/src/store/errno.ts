/**
 * True when `error` is a Node system error with this `code` (`ENOENT`, `EEXIST`, …).
 *
 * @example
 * if (isErrnoError(error, 'ENOENT')) return undefined;
 */
export function isErrnoError(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
