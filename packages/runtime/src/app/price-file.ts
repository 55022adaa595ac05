import { readFile } from 'node:fs/promises';
import {
  ConfigurationError,
  errorMessage,
  type PriceTable,
  priceTableSchema,
} from '@tiny-claw/core';

/** What a valid file looks like, repeated in every error so the user can fix it in one go. */
const EXPECTED_FORMAT =
  'Expected JSON like {"models": {"gpt-5.4": {"input": 2.5, "output": 15, "cached_input": 0.25}}}: ' +
  'prices in USD per 1M tokens; "input" and "output" are required, "cached_input" and ' +
  '"cache_write" are optional.';

/**
 * Read the user's price file named by `TINY_CLAW_PRICES`: USD per 1M tokens per model, e.g.
 *
 * ```json
 * { "models": {
 *     "gpt-5.4": { "input": 2.5, "output": 15, "cached_input": 0.25 },
 *     "my-local-model": { "input": 0, "output": 0 },
 *     "claude-sonnet-4-5": { "input": 3, "output": 15, "cached_input": 0.3, "cache_write": 3.75 } } }
 * ```
 *
 * The result holds only the file's models; each provider merges it over its own vendor table,
 * where a listed model replaces the built-in entry whole.
 *
 * @throws ConfigurationError (exit 78) naming TINY_CLAW_PRICES, the file and every problem: the
 * file cannot be read, is not JSON, or breaks the format (missing or negative price, unknown key).
 *
 * @example
 * const prices = settings.pricesPath ? await loadPriceFile(settings.pricesPath) : undefined;
 * const provider = new OpenAIProvider({ apiKey, model, prices });
 */
export async function loadPriceFile(path: string): Promise<PriceTable> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigurationError(
      `TINY_CLAW_PRICES points to ${path}, which could not be read: ${errorMessage(error)}`,
      { cause: error },
    );
  }
  let json: unknown;
  try {
    // Editors on Windows like to start UTF-8 files with a byte-order mark; JSON.parse does not.
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ConfigurationError(
      `TINY_CLAW_PRICES file ${path} is not valid JSON: ${errorMessage(error)}\n${EXPECTED_FORMAT}`,
      { cause: error },
    );
  }
  const parsed = priceTableSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (issue) => `  - ${formatPath(issue.path)}: ${issue.message}`,
  );
  throw new ConfigurationError(
    [`TINY_CLAW_PRICES file ${path} is not a valid price file:`, ...problems, EXPECTED_FORMAT].join(
      '\n',
    ),
  );
}

/** `models["gpt-5.4"].input`: model names contain dots, so they are quoted, not dotted. */
function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(file)';
  return path
    .map((key, index) => {
      if (typeof key === 'number') return `[${key}]`;
      const name = String(key);
      if (/^[A-Za-z_$][\w$]*$/.test(name)) return index === 0 ? name : `.${name}`;
      return `[${JSON.stringify(name)}]`;
    })
    .join('');
}
