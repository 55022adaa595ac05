import { z } from 'zod';
import { ConfigurationError } from '../errors.js';
import { closestName } from './closest-name.js';

/**
 * Check an options object (a provider's, a tool's) against its strict schema and turn the first problem into a
 * `ConfigurationError` that says what was wrong and what to write instead. JavaScript callers get
 * no type check, so a misspelt option (`baseurl`) must fail here rather than be dropped and send
 * the user's key to the default endpoint. `renamed` maps old spellings to the current ones;
 * the values of `secretKeys` (default `apiKey`) never appear in a message.
 *
 * @example
 * const options = parseOptions(schema, input, 'OpenAIProvider', { baseUrl: 'baseURL' });
 */
export function parseOptions<Shape extends z.core.$ZodLooseShape>(
  schema: z.ZodObject<Shape, z.core.$strict>,
  input: unknown,
  label: string,
  renamed: Readonly<Record<string, string>>,
  secretKeys: readonly string[] = ['apiKey'],
): z.output<z.ZodObject<Shape, z.core.$strict>> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ConfigurationError(
      `${label} needs an options object such as { apiKey, model }; got ${describe('', input, secretKeys)}.`,
    );
  }
  const known = Object.keys(schema.shape);
  for (const key of Object.keys(input)) {
    if (known.includes(key)) continue;
    const current = renamed[key];
    if (current !== undefined) {
      throw new ConfigurationError(
        `${label} option "${key}" is now spelled "${current}", as the vendor SDKs spell it: use ${current}.`,
      );
    }
    const guess = closestName(key, known, {
      loose: true,
      maxDistance: Math.max(1, Math.floor(key.length / 3)),
    });
    const hint = guess === undefined ? '' : ` Did you mean ${guess}?`;
    throw new ConfigurationError(
      `${label} has no option "${key}".${hint} Known options: ${known.join(', ')}.`,
    );
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0] as z.core.$ZodIssue;
  const key = issue.path.map(String).join('.');
  const value = (input as Record<string, unknown>)[String(issue.path[0])];
  throw new ConfigurationError(
    `Invalid ${label} option ${key} = ${describe(key, value, secretKeys)}: expected ${issue.message}.`,
  );
}

/**
 * A zod check for a whole number of at least `min`, whose message states the rule.
 *
 * @example
 * const schema = z.strictObject({ maxRetries: wholeNumber(0).optional() });
 */
export function wholeNumber(min: number) {
  return z.custom<number>(
    (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= min,
    { message: `an integer ≥ ${min}` },
  );
}

/**
 * A zod check for an `http:` or `https:` URL string.
 *
 * @example
 * const schema = z.strictObject({ baseURL: httpUrl('http://127.0.0.1:11434/v1').optional() });
 */
export function httpUrl(example: string) {
  return z.custom<string>(
    (value) => {
      if (typeof value !== 'string') return false;
      try {
        const { protocol } = new URL(value);
        return protocol === 'http:' || protocol === 'https:';
      } catch {
        return false;
      }
    },
    { message: `an http(s) URL string such as ${example} (leave it out for the default endpoint)` },
  );
}

/**
 * A zod check for a non-empty string, with `rule` as its message.
 *
 * @example
 * const schema = z.strictObject({ model: nonEmptyText('a model name') });
 */
export function nonEmptyText(rule: string) {
  return z.custom<string>((value) => typeof value === 'string' && value.trim() !== '', {
    message: rule,
  });
}

/** The offending value, short; the value of a secret option (`secretKeys`) is never shown. */
function describe(key: string, value: unknown, secretKeys: readonly string[]): string {
  if (secretKeys.includes(key)) {
    if (typeof value !== 'string') return value == null ? String(value) : `a ${typeof value}`;
    return value === '' ? '""' : 'a blank string';
  }
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null)
    return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Whether `value` is a price table as code passes it (`PriceTable`): model name →
 * `{ inputPerMTok, outputPerMTok }` with optional cache rates, every rate a finite number ≥ 0.
 * (A price file, `{ models: { … } }`, is read with `priceTableSchema`.)
 *
 * @example
 * isPriceTable({ 'my-model': { inputPerMTok: 1, outputPerMTok: 2 } }); // true
 */
export function isPriceTable(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const rate = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  const optionalRate = (n: unknown) => n === undefined || rate(n);
  return Object.values(value).every((price: unknown) => {
    if (typeof price !== 'object' || price === null) return false;
    const entry = price as Record<string, unknown>;
    return (
      rate(entry.inputPerMTok) &&
      rate(entry.outputPerMTok) &&
      optionalRate(entry.cachedInputPerMTok) &&
      optionalRate(entry.cacheWritePerMTok)
    );
  });
}
