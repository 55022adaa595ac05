import { readFile } from 'node:fs/promises';
import { ConfigurationError } from '@tiny-claw/core';

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const EXPORT_PREFIX = /^export\s+/;
const DOUBLE_QUOTE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  r: '\r',
  t: '\t',
  '"': '"',
  '\\': '\\',
};

/**
 * Parses the text of a `.env` file into a map of variable names to values.
 *
 * Rules: blank lines and lines starting with `#` are ignored; an optional leading `export ` is
 * dropped; each other line is `KEY=VALUE` with the key and value trimmed; a value wrapped in
 * matching single or double quotes loses them (double quotes also understand `\n`, `\r`, `\t`, `\"`
 * and `\\`). There is no interpolation and no inline comment: `#` inside a value is kept, because
 * secrets may contain it. A later line for the same key wins.
 *
 * Error messages name the line number and the problem but never echo the line, which may hold a
 * secret.
 *
 * @throws ConfigurationError for a line without `=`, with an empty key or with an invalid name.
 * @example
 * parseDotenv('export OPENAI_API_KEY="sk-1"\n# comment\nTINY_CLAW_MAX_TOKENS=2048', '.env');
 * // → { OPENAI_API_KEY: 'sk-1', TINY_CLAW_MAX_TOKENS: '2048' }
 */
export function parseDotenv(text: string, fileLabel: string): Record<string, string> {
  // A null prototype keeps a `__proto__=` line an ordinary key.
  const values: Record<string, string> = Object.create(null);
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  lines.forEach((rawLine, index) => {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) return;
    const assignment = line.replace(EXPORT_PREFIX, '');
    const where = `Invalid .env line ${index + 1} in ${fileLabel}: expected KEY=VALUE`;
    const equals = assignment.indexOf('=');
    if (equals === -1) throw new ConfigurationError(`${where}, but the line has no "=".`);
    const key = assignment.slice(0, equals).trim();
    if (key === '') throw new ConfigurationError(`${where}, but the key before "=" is empty.`);
    if (!VARIABLE_NAME.test(key)) {
      throw new ConfigurationError(
        `${where}, but ${JSON.stringify(key)} is not a valid variable name ` +
          '(letters, digits and "_", not starting with a digit).',
      );
    }
    values[key] = unquote(assignment.slice(equals + 1).trim());
  });
  return values;
}

/**
 * Reads and parses a `.env` file; a missing file yields an empty map.
 *
 * @throws ConfigurationError when the file exists but cannot be read or has an invalid line.
 * @example
 * const dotenv = await loadDotenv(path.join(process.cwd(), '.env'));
 */
export async function loadDotenv(path: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigurationError(`Cannot read the .env file ${path}: ${reason}`, { cause: error });
  }
  return parseDotenv(text, path);
}

function unquote(value: string): string {
  if (value.length < 2) return value;
  const quote = value[0];
  if ((quote !== '"' && quote !== "'") || value.at(-1) !== quote) return value;
  const inner = value.slice(1, -1);
  if (quote === "'") return inner;
  return inner.replace(
    /\\(.)/g,
    (sequence, char: string) => DOUBLE_QUOTE_ESCAPES[char] ?? sequence,
  );
}
