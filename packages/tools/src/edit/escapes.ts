/** What each escape old_text may have been written with stands for. */
const DECODED: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  '"': '"',
  "'": "'",
  '\\': '\\',
};

/** A backslash and the character after it, consumed left to right (so `\\n` is `\\` + `n`). */
const PAIR = /\\([\s\S])/g;

/**
 * The escapes (`n`, `t`, `"`, `'`, `\`) written literally in `text` as backslash pairs, each
 * once, in order of first use; empty when there are none.
 *
 * @example
 * escapeKindsOf('print(\\"a\\")\\n'); // '"n'
 */
export function escapeKindsOf(text: string): string {
  if (!text.includes('\\')) return '';
  let kinds = '';
  for (const match of text.matchAll(PAIR)) {
    const kind = match[1] as string;
    if (DECODED[kind] !== undefined && !kinds.includes(kind)) kinds += kind;
  }
  return kinds;
}

/**
 * `text` with the backslash escapes of the given `kinds` decoded in one left-to-right pass;
 * other backslash pairs are kept as written.
 *
 * @example
 * decodeEscapes('a\\nb \\"c\\"', 'n"'); // 'a\nb "c"'
 * decodeEscapes('a\\nb', '"'); // 'a\\nb'
 */
export function decodeEscapes(text: string, kinds: string): string {
  if (kinds === '' || !text.includes('\\')) return text;
  return text.replace(PAIR, (pair, kind: string) =>
    kinds.includes(kind) ? (DECODED[kind] ?? pair) : pair,
  );
}
