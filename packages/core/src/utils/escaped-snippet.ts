// Control characters (C0, DEL, C1), invisible format characters (bidi overrides, zero-width
// joiners) and line or paragraph separators: what can act on a terminal, or hide or reorder text.
const UNSAFE = /^[\p{Cc}\p{Cf}\u2028\u2029]$/u;

/**
 * `text` made safe to quote in a message, on one line and at most `maxChars` characters (ending
 * with `…` when cut): every control or invisible character is shown as an escape (`\x1b`, `\n`,
 * `\u202e`), so an escape sequence read from a corrupt file prints as text and never reaches a
 * terminal or a log as a command.
 *
 * @example
 * escapedSnippet('\x1b]0;pwned\x07{'); // '\\x1b]0;pwned\\x07{'
 * escapedSnippet('x'.repeat(100), 10); // 'xxxxxxxxx…'
 */
export function escapedSnippet(text: string, maxChars = 120): string {
  let out = '';
  // Where to cut for the `…`: always between two characters, never inside an escape.
  let cut = 0;
  // Only as far as can be shown: a megabyte of input costs no more than the snippet.
  for (const char of text) {
    const shown = UNSAFE.test(char) ? escapeCharacter(char) : char;
    if (out.length + shown.length > maxChars) return `${out.slice(0, cut)}…`;
    out += shown;
    if (out.length < maxChars) cut = out.length;
  }
  return out;
}

function escapeCharacter(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (char === '\n') return '\\n';
  if (char === '\t') return '\\t';
  if (char === '\r') return '\\r';
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `\\u${code.toString(16).padStart(4, '0')}`;
}
