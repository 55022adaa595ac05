/**
 * Rows as aligned columns separated by two spaces, the last column left ragged. Cells must already
 * be printable (see `printable`).
 *
 * @example
 * table([['ID', 'STATUS'], ['ap_1', 'pending']]); // 'ID    STATUS\nap_1  pending\n'
 */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, [...cell].length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}
