// Control characters (C0, DEL, C1), invisible format characters (bidi overrides, zero-width
// joiners) and line/paragraph separators: what can move the cursor, recolour, rewrite or hide
// text when printed. Tabs and newlines are handled per call.
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/**
 * The SGR codes tiny-claw paints with — here and in the trace tree it prints — and so the only
 * escape sequences {@link terminalSafe} lets through: weights and foreground colours, nothing that
 * could hide text (conceal, reverse, backgrounds) or do more than colour it.
 */
export const STYLES = {
  reset: '0',
  bold: '1',
  dim: '2',
  red: '31',
  green: '32',
  yellow: '33',
  magenta: '35',
  cyan: '36',
  boldRed: '1;31',
} as const;

/** One of the {@link STYLES}. */
export type Style = Exclude<keyof typeof STYLES, 'reset'>;

const OWN_STYLE_OR_UNSAFE = new RegExp(
  `\\x1b\\[(?:${Object.values(STYLES).join('|')})m|${UNSAFE.source}`,
  'gu',
);

/**
 * Text from the model, a tool or a file, made safe to print on a terminal: every control or
 * invisible character is shown as an escape (`\x1b`, `\u202e`) instead of acting on the terminal,
 * so an escape sequence reads as text (`\x1b]0;title\x07`). With `multiline`, newlines and tabs
 * are kept as they are (and a carriage return before a newline is dropped).
 *
 * @example
 * printable('\x1b[2Jrm -rf /'); // '\\x1b[2Jrm -rf /'
 */
export function printable(text: string, options: { multiline?: boolean } = {}): string {
  return text.replace(UNSAFE, (char, offset: number) => {
    if (options.multiline && (char === '\n' || char === '\t')) return char;
    if (options.multiline && char === '\r' && text[offset + 1] === '\n') return '';
    return escapeCharacter(char);
  });
}

/**
 * Whatever is about to be written to a terminal, as the last check before it gets there: the
 * styles tiny-claw paints with ({@link STYLES}), newlines, tabs and CRLF pass; every other
 * control or invisible character is shown as {@link printable} shows it. Fields from the model
 * or the tools are already {@link printable} where they are put into a line — this catches what
 * no one thought of (an error message quoting model input, a path) and never lets a sequence that
 * moves the cursor, clears the screen, sets the title or writes the clipboard through.
 *
 * @example
 * terminalSafe('\x1b[32mok\x1b[0m \x1b]52;c;aGk=\x07'); // '\x1b[32mok\x1b[0m \\x1b]52;c;aGk=\\x07'
 */
export function terminalSafe(text: string): string {
  return text.replace(OWN_STYLE_OR_UNSAFE, (match, offset: number) => {
    // One of our styles is the only match that starts with ESC and goes on.
    if ((match.startsWith('\x1b') && match.length > 1) || match === '\n' || match === '\t')
      return match;
    if (match === '\r' && text[offset + 1] === '\n') return match;
    return escapeCharacter(match);
  });
}

/**
 * A function that wraps text in one of the {@link STYLES}, or leaves it plain without colour.
 *
 * @example
 * const paint = painter(out.color);
 * out.stderr(`${paint('green', 'ok')}\n`);
 */
export function painter(color: boolean): (style: Style, text: string) => string {
  return color
    ? (style, text) => `\x1b[${STYLES[style]}m${text}\x1b[${STYLES.reset}m`
    : (_style, text) => text;
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
