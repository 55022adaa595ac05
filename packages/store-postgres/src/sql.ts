/**
 * A name quoted for SQL (`"tiny_claw"`), so it is taken exactly as written.
 *
 * @example
 * quoteIdentifier('tiny_claw'); // '"tiny_claw"'
 */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
