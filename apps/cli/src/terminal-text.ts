// Control characters (C0, DEL, C1), invisible format characters (bidi overrides, zero-width
// joiners) and line/paragraph separators: what can move the cursor, recolour, rewrite or hide
// text when printed. Tabs and newlines are handled per call.
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/**
 * Text from the model, a tool or a file, made safe to print on a terminal: every control or
 * invisible character is shown as an escape (`\x1b`, `\u202e`) instead of acting on the terminal.
 * With `multiline`, newlines and tabs are kept as they are.
 *
 * @example
 * printable('\x1b[2Jrm -rf /'); // '\\x1b[2Jrm -rf /'
 */
export function printable(text: string, options: { multiline?: boolean } = {}): string {
  return text.replace(UNSAFE, (char) => {
    if (options.multiline && (char === '\n' || char === '\t')) return char;
    return escapeCharacter(char);
  });
}

/**
 * JSON for stdout with the same guarantee: `JSON.stringify` already escapes C0 controls, but leaves
 * DEL, C1 controls and invisible format characters raw inside strings. They are escaped as
 * `\uXXXX`, which decodes to the same value, so the output stays exactly the same JSON data.
 *
 * @example
 * printableJson({ text: 'a\u202eb' }); // '{\n  "text": "a\\u202eb"\n}'
 */
export function printableJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(UNSAFE, (char) =>
    // Pretty-printing's own newlines are the only raw control characters outside strings.
    char === '\n'
      ? char
      : // UTF-16 code units, so a character beyond U+FFFF becomes its surrogate pair, as JSON wants.
        Array.from(
          { length: char.length },
          (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`,
        ).join(''),
  );
}

function escapeCharacter(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (char === '\n') return '\\n';
  if (char === '\t') return '\\t';
  if (char === '\r') return '\\r';
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`;
}
