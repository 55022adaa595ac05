/** A frontmatter value: a scalar string, or a list from `- item` lines or an inline `[a, b]`. */
export type FrontmatterValue = string | readonly string[];

/** What {@link parseFrontmatter} found in a document. */
export interface ParsedFrontmatter {
  /** Keys lower-cased; own properties only (read them with `Object.hasOwn`). */
  data: Readonly<Record<string, FrontmatterValue>>;
  /** The text after the closing `---` line, or the whole text when there is no frontmatter. */
  body: string;
  /** True when a `---` … `---` block was found. */
  hasFrontmatter: boolean;
  /** True when the first line is `---` but no closing `---` follows (then the whole text is body). */
  unclosed: boolean;
  /** 1-based line numbers of frontmatter lines that were neither `key: value`, list item nor comment. */
  ignoredLines: readonly number[];
}

/**
 * Parse the mini-YAML frontmatter of a SKILL.md, as the original does: the first line is `---`, the
 * block ends at the next `---` line; inside, `key: value` (key lower-cased), `key:` followed by
 * `- item` lines (a list), inline `[a, "b"]` (a list), matching quotes stripped, `#` comment lines
 * and blank lines skipped. No closing `---` means no frontmatter. Never throws: lines it cannot
 * read are skipped and reported in `ignoredLines`.
 *
 * @example
 * const { data, body } = parseFrontmatter('---\nname: review\ntriggers: [review, "pr"]\n---\nSteps');
 * // data = { name: 'review', triggers: ['review', 'pr'] }, body = 'Steps'
 */
export function parseFrontmatter(text: string): ParsedFrontmatter {
  const lines = text.split(/\r\n|\r|\n/);
  const none = { data: {}, body: text, hasFrontmatter: false, ignoredLines: [] };
  if (lines[0]?.trim() !== '---') return { ...none, unclosed: false };
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0) return { ...none, unclosed: true };

  const entries = new Map<string, FrontmatterValue>();
  const ignoredLines: number[] = [];
  let list: string[] | undefined;
  for (let index = 1; index < end; index += 1) {
    const line = lines[index] as string;
    const stripped = line.trim();
    if (stripped === '' || stripped.startsWith('#')) continue;
    if (list && stripped.startsWith('- ')) {
      list.push(stripQuotes(stripped.slice(2).trim()));
      continue;
    }
    list = undefined;
    const colon = line.indexOf(':');
    const key = colon < 0 ? '' : line.slice(0, colon).trim().toLowerCase();
    // A stray `- item` outside a list is not a key, even when the item holds a colon.
    if (key === '' || key.startsWith('- ')) {
      ignoredLines.push(index + 1);
      continue;
    }
    const value = line.slice(colon + 1).trim();
    if (value === '') {
      list = [];
      entries.set(key, list);
    } else {
      entries.set(key, parseValue(value));
    }
  }
  return {
    // fromEntries defines own properties, so a `__proto__:` key cannot reach the prototype.
    data: Object.fromEntries(entries),
    body: lines.slice(end + 1).join('\n'),
    hasFrontmatter: true,
    unclosed: false,
    ignoredLines,
  };
}

/**
 * Read a scalar field; lists and absent keys give `''`. The first spelling present as a string wins.
 *
 * @example
 * frontmatterString(data, 'when_to_use', 'when-to-use');
 */
export function frontmatterString(
  data: ParsedFrontmatter['data'],
  ...keys: readonly string[]
): string {
  for (const key of keys) {
    const value = Object.hasOwn(data, key) ? data[key] : undefined;
    if (typeof value === 'string') return value.trim();
  }
  return '';
}

/**
 * Read a list field: a comma-separated string or a list, empty items dropped.
 *
 * @example
 * frontmatterList({ 'allowed-tools': 'read, bash' }, 'allowed_tools', 'allowed-tools'); // ['read', 'bash']
 */
export function frontmatterList(
  data: ParsedFrontmatter['data'],
  ...keys: readonly string[]
): string[] {
  for (const key of keys) {
    const value = Object.hasOwn(data, key) ? data[key] : undefined;
    if (value === undefined) continue;
    const items = typeof value === 'string' ? value.split(',') : value;
    return items.map((item) => item.trim()).filter((item) => item !== '');
  }
  return [];
}

const TRUE_WORDS = new Set(['true', 'yes', '1', 'on']);
const FALSE_WORDS = new Set(['false', 'no', '0', 'off']);

/**
 * Read a boolean field from the words true/yes/1/on and false/no/0/off (any case); a spelling with
 * another value is passed over, and `fallback` is used when none decides.
 *
 * @example
 * frontmatterBool({ 'user-invocable': 'no' }, true, 'user_invocable', 'user-invocable'); // false
 */
export function frontmatterBool(
  data: ParsedFrontmatter['data'],
  fallback: boolean,
  ...keys: readonly string[]
): boolean {
  for (const key of keys) {
    const value = Object.hasOwn(data, key) ? data[key] : undefined;
    if (typeof value !== 'string') continue;
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return fallback;
}

function parseValue(value: string): FrontmatterValue {
  if (value.startsWith('[') && value.endsWith(']')) {
    return value
      .slice(1, -1)
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '')
      .map(stripQuotes);
  }
  return stripQuotes(value);
}

function stripQuotes(value: string): string {
  const first = value[0];
  if (value.length >= 2 && (first === '"' || first === "'") && value.endsWith(first)) {
    return value.slice(1, -1);
  }
  return value;
}
