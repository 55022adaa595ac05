import {
  FRONTMATTER_MAX_ALIASES,
  FRONTMATTER_MAX_DEPTH,
  type FrontmatterError,
  type FrontmatterValue,
  readFrontmatterBlock,
} from './frontmatter-block.js';

export {
  FRONTMATTER_MAX_ALIASES,
  FRONTMATTER_MAX_DEPTH,
  type FrontmatterError,
  type FrontmatterValue,
};

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
  /** Set when the block is not usable YAML; then `data` is empty. */
  error?: FrontmatterError;
}

/**
 * Parse the YAML frontmatter of a SKILL.md. The first line is `---` and the block ends at the next
 * `---` line (surrounding blanks allowed, CRLF accepted); no closing line means no frontmatter
 * (`unclosed`). The block is read with the `yaml` package, loaded only when a block exists, with the
 * failsafe schema, so every scalar stays the text written (`yes`, `1.0`, `~` are strings; an empty
 * value is `''`): folded `>` and literal `|` blocks, quotes, comments, flow `[a, b]` and block
 * `- item` lists all follow YAML. Top-level keys are lower-cased (a later spelling that differs only
 * in case wins); a sequence becomes a list of its scalar items; a nested mapping is flattened into
 * dotted keys (`metadata: {version: 2}` gives `metadata.version`); anything else (a list of
 * mappings, a key that is not a scalar) is left out.
 *
 * Never throws. A block that is not valid YAML, whose root is not a mapping, that uses a tag other
 * than `!!str`/`!!seq`/`!!map`, nests deeper than {@link FRONTMATTER_MAX_DEPTH} levels or expands
 * more than {@link FRONTMATTER_MAX_ALIASES} aliases gives empty `data` and an `error` naming the
 * document line. The caller bounds the text's size (a SKILL.md is cut before it is parsed).
 *
 * @example
 * const { data, body } = await parseFrontmatter('---\nname: review\ntriggers: [review, "pr"]\n---\nSteps');
 * // data = { name: 'review', triggers: ['review', 'pr'] }, body = 'Steps'
 */
export async function parseFrontmatter(text: string): Promise<ParsedFrontmatter> {
  const lines = text.split(/\r\n|\r|\n/);
  const none = { data: {}, body: text, hasFrontmatter: false };
  if (lines[0]?.trim() !== '---') return { ...none, unclosed: false };
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0) return { ...none, unclosed: true };

  const found = {
    body: lines.slice(end + 1).join('\n'),
    hasFrontmatter: true,
    unclosed: false,
  };
  const read = await readFrontmatterBlock(lines.slice(1, end).join('\n'));
  if ('error' in read) {
    // Block lines are numbered from 1; the document has the opening `---` before them.
    return { ...found, data: {}, error: { ...read.error, line: read.error.line + 1 } };
  }
  return { ...found, data: read.data };
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
 * frontmatterList({ 'allowed-tools': 'lookup, search' }, 'allowed_tools', 'allowed-tools'); // ['lookup', 'search']
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
