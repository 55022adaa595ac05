import { parseEnv } from 'node:util';
import { ConfigurationError } from '@tiny-claw/core';
import { readSettingsFile } from './settings-file-read.js';

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const EXPORT_PREFIX = /^export\s+/;
/** What may follow a closing quote on its line: blanks and an optional comment. */
const AFTER_CLOSING_QUOTE = /^[ \t]*(?:#.*)?$/;
const QUOTE_NAMES: Readonly<Record<string, string>> = {
  '"': 'double quote (")',
  "'": "single quote (')",
  '`': 'backtick (`)',
};

/**
 * Parses the text of a `.env` file into a map of variable names to values, with the semantics of
 * Node's `util.parseEnv` (which decides every value) plus the checks `parseEnv` lacks.
 *
 * Rules:
 * - A byte order mark is dropped; CRLF and CR line ends count as LF (also inside quoted values).
 * - Blank lines and lines whose first non-blank character is `#` are ignored.
 * - Every other line is `KEY=VALUE`, with an optional leading `export `; the key is trimmed and must
 *   be letters, digits and `_`, not starting with a digit. Everything after the first `=` is the value.
 * - Spaces around the value are dropped. A value starting with `"`, `'` or `` ` `` is quoted: it ends
 *   at the next same quote, may span several lines (line breaks are kept), and keeps `#` and spaces
 *   inside. Quotes cannot be escaped: wrap a value holding `"` in `'` or `` ` ``. After the closing
 *   quote only blanks and a `# comment` may follow.
 * - Only double-quoted values expand `\n` into a line break; nothing else is an escape, and there is
 *   no `$VAR` interpolation.
 * - In an unquoted value, `#` starts a comment when it opens the value or follows a space or tab
 *   (`KEY=value # note` gives `value`, `KEY=# note` gives `''`). Node would also cut at a `#` right
 *   after other text (`KEY=p@ss#word` gives `p@ss`); that silently truncates secrets, so it is an
 *   error here instead: quote such a value.
 * - A later line for the same key wins; `__proto__` is an ordinary key.
 *
 * Error messages name the file, the line number and the problem but never echo a value, which may
 * be a secret.
 *
 * @throws ConfigurationError for a line without `=`, with an empty or invalid key, a quoted value
 * that is never closed (reported at the line where the quote opens), text after a closing quote, or
 * an unquoted `#` right after other text.
 * @example
 * parseDotenv('export OPENAI_API_KEY="sk-1"\n# comment\nTINY_CLAW_MAX_TOKENS=2048 # tokens', '.env');
 * // → { OPENAI_API_KEY: 'sk-1', TINY_CLAW_MAX_TOKENS: '2048' }
 */
export function parseDotenv(text: string, fileLabel: string): Record<string, string> {
  // A null prototype keeps a `__proto__=` line an ordinary key.
  const values: Record<string, string> = Object.create(null);
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const invalid = (lineNumber: number, problem: string) =>
    new ConfigurationError(`Invalid .env line ${lineNumber} in ${fileLabel}: ${problem}`);

  // Node's parseEnv skips what it cannot read (a line without `=` even merges into the next key) and
  // reports no line numbers, so lines are split and checked here and only values go to parseEnv.
  let index = 0;
  while (index < lines.length) {
    const lineNumber = index + 1;
    // Not trimmed at the end: a quoted value may keep trailing spaces on a line it spans.
    const line = (lines[index] as string).trimStart();
    index += 1;
    if (line.trim() === '' || line.startsWith('#')) continue;
    const assignment = line.replace(EXPORT_PREFIX, '');
    const expected = 'expected KEY=VALUE';
    const equals = assignment.indexOf('=');
    if (equals === -1) throw invalid(lineNumber, `${expected}, but the line has no "=".`);
    const key = assignment.slice(0, equals).trim();
    if (key === '') throw invalid(lineNumber, `${expected}, but the key before "=" is empty.`);
    if (!VARIABLE_NAME.test(key)) {
      throw invalid(
        lineNumber,
        `${expected}, but ${JSON.stringify(key)} is not a valid variable name ` +
          '(letters, digits and "_", not starting with a digit).',
      );
    }

    // parseEnv drops spaces (not tabs) before a value, so only spaces can precede an opening quote.
    const value = assignment.slice(equals + 1).replace(/^ +/, '');
    const at = { key, lineNumber, invalid };
    let raw = value;
    if (Object.hasOwn(QUOTE_NAMES, value[0] ?? '')) {
      const quoted = readQuoted(value, lines, index, at);
      raw = quoted.raw;
      index = quoted.next;
    } else {
      checkUnquoted(value, at);
    }
    values[key] = nodeValue(raw);
  }
  return values;
}

/**
 * Reads and parses a `.env` file; a missing file yields an empty map.
 *
 * @throws ConfigurationError when the file exists but cannot be used (see {@link readDotenvFile})
 * or has an invalid line.
 * @example
 * const dotenv = await loadDotenv(path.join(process.cwd(), '.env'));
 */
export async function loadDotenv(path: string): Promise<Record<string, string>> {
  return (await readDotenvFile(path)) ?? {};
}

/**
 * Reads and parses a `.env` file; `undefined` when there is no such file, so a caller can tell a
 * missing file from an empty one. Only a regular file of at most 1 MiB is read, and a named pipe
 * never blocks (see `readSettingsFile`).
 *
 * @throws SettingsFileError (a ConfigurationError) when the file exists but is not a regular file,
 * is over 1 MiB or cannot be read; ConfigurationError for an invalid line.
 * @example
 * const values = await readDotenvFile('/home/me/.config/tiny-claw/.env'); // undefined if absent
 */
export async function readDotenvFile(path: string): Promise<Record<string, string> | undefined> {
  const bytes = await readSettingsFile(path);
  return bytes === undefined ? undefined : parseDotenv(bytes.toString('utf8'), path);
}

/**
 * The value Node gives one checked `KEY=` right-hand side. A fixed placeholder key keeps the real
 * one (even `__proto__`, which parseEnv drops) out of Node's hands.
 */
function nodeValue(raw: string): string {
  return parseEnv(`VALUE=${raw}`).VALUE ?? '';
}

/** Where a value sits, for error messages. */
interface ValueSite {
  key: string;
  lineNumber: number;
  invalid: (lineNumber: number, problem: string) => ConfigurationError;
}

/**
 * Collect a quoted value from `value` (which starts with the quote) and, while it stays open, the
 * lines from `next` on. Returns the value re-quoted on one logical entry and the next line to read.
 */
function readQuoted(
  value: string,
  lines: readonly string[],
  next: number,
  { key, lineNumber, invalid }: ValueSite,
): { raw: string; next: number } {
  const quote = value[0] as string;
  const quoteName = QUOTE_NAMES[quote] as string;
  const parts: string[] = [];
  let rest = value.slice(1);
  let close = rest.indexOf(quote);
  let cursor = next;
  while (close === -1 && cursor < lines.length) {
    parts.push(rest);
    rest = lines[cursor] as string;
    cursor += 1;
    close = rest.indexOf(quote);
  }
  if (close === -1) {
    throw invalid(
      lineNumber,
      `the value of ${key} opens a ${quoteName} that is never closed. Add the closing quote ` +
        '(a quoted value may span several lines), or wrap the value in a different kind of quote ' +
        'if this one belongs to it.',
    );
  }
  if (!AFTER_CLOSING_QUOTE.test(rest.slice(close + 1))) {
    // `cursor` is the 0-based index after the closing line, so it is that line's 1-based number.
    const closeLine = cursor === next ? lineNumber : cursor;
    throw invalid(
      closeLine,
      `text follows the closing ${quoteName} of the value of ${key} (opened on line ` +
        `${lineNumber}); only a # comment may follow it. Quotes cannot be escaped: wrap a value ` +
        'that contains this quote in a different kind of quote.',
    );
  }
  parts.push(rest.slice(0, close));
  return { raw: `${quote}${parts.join('\n')}${quote}`, next: cursor };
}

/** Refuse an unquoted `#` glued to text: parseEnv would silently cut the value there. */
function checkUnquoted(value: string, { key, lineNumber, invalid }: ValueSite): void {
  const hash = value.indexOf('#');
  if (hash > 0 && !/[ \t]/.test(value[hash - 1] as string)) {
    throw invalid(
      lineNumber,
      `the unquoted value of ${key} has a "#" right after other text, which would start a ` +
        'comment and cut the value there. Quote the value to keep the "#", or put a space ' +
        'before it if it starts a comment.',
    );
  }
}
