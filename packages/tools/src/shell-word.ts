/**
 * Quote a word for a bash command line only when it needs it, so simple paths stay readable in
 * advice (`ls src/lib`, but `ls 'my dir'`).
 *
 * @example
 * shellWord('src/lib'); // 'src/lib'
 * shellWord("it's here"); // "'it'\\''s here'"
 */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The directory to list when `file` was not found: its parent as the model spelled it, or `.`.
 *
 * @example
 * parentToList('src/missing.ts'); // 'src'
 */
export function parentToList(file: string): string {
  const trimmed = file.trim().replace(/[\\/]+$/, '');
  const slash = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  if (slash < 0) return '.';
  return slash === 0 ? '/' : trimmed.slice(0, slash);
}
