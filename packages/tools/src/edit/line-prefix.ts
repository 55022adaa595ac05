/** The `N: ` prefix the `read` tool puts before each line (an empty line reads `N: ` or `N:`). */
const PREFIX = /^[ \t]*(\d+):(?: |$)/;

/**
 * If every line of `text` starts with a `read`-style `N: ` prefix and the numbers are
 * consecutive (as they are when copied from one read output), return the text without them;
 * otherwise `undefined`. The consecutive rule keeps text that merely looks numbered (a YAML map
 * with keys `1:`, `2:`) from being rewritten.
 *
 * @example
 * stripReadLinePrefixes('12: const a = 1;\n13:   return a;'); // 'const a = 1;\n  return a;'
 * stripReadLinePrefixes('1: a\n5: b'); // undefined
 */
export function stripReadLinePrefixes(text: string): string | undefined {
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  const out: string[] = [];
  let expected: number | undefined;
  for (const line of lines) {
    const match = PREFIX.exec(line);
    if (!match) return undefined;
    const number = Number(match[1]);
    if (expected !== undefined && number !== expected) return undefined;
    expected = number + 1;
    out.push(line.slice(match[0].length));
  }
  const joined = out.join('\n');
  return endsWithNewline ? `${joined}\n` : joined;
}

/**
 * Remove `N: ` prefixes from new_text after old_text was found only without them. Lines the
 * model added without a prefix are kept; nothing is stripped unless most non-blank lines carry
 * one, so a new_text written cleanly is left alone.
 *
 * @example
 * stripNewTextPrefixes('12: a\n    added\n13: b'); // 'a\n    added\nb'
 * stripNewTextPrefixes('a\nb'); // 'a\nb'
 */
export function stripNewTextPrefixes(text: string): string {
  const lines = text.split('\n');
  const nonBlank = lines.filter((line) => line.trim() !== '');
  const prefixed = nonBlank.filter((line) => PREFIX.test(line)).length;
  if (prefixed === 0 || prefixed * 2 < nonBlank.length) return text;
  return lines.map((line) => line.replace(PREFIX, '')).join('\n');
}

/**
 * True when at least one line of `text` starts like a `read` line-number prefix; used to
 * sharpen the not-found message.
 *
 * @example
 * hasReadLinePrefix('  7: foo'); // true
 */
export function hasReadLinePrefix(text: string): boolean {
  return text.split('\n').some((line) => PREFIX.test(line));
}
