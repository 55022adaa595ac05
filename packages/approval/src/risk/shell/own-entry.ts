/**
 * `table[key]` only when `key` is the table's own entry. Command names come from untrusted text,
 * and a plain lookup of `constructor` or `__proto__` would find the object prototype instead.
 *
 * @example
 * ownEntry({ ls: 1 }, 'constructor'); // undefined
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
