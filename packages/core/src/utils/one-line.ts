/**
 * `text` as one line of at most `maxChars` characters: runs of white space (newlines included)
 * become one space, and a longer text ends with `…`. Upstream text such as a proxy's HTML error
 * page must not flood a terminal or split a log line.
 *
 * @example
 * oneLine('line one\n  line two'); // 'line one line two'
 * oneLine('x'.repeat(500), 10); // 'xxxxxxxxx…'
 */
export function oneLine(text: string, maxChars = 400): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxChars ? `${flat.slice(0, Math.max(0, maxChars - 1))}…` : flat;
}
