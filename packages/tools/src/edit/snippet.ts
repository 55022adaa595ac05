/**
 * Limits of the numbered snippet shown after an edit.
 *
 * @example
 * SNIPPET_LIMITS.contextLines; // 2
 */
export const SNIPPET_LIMITS = {
  contextLines: 2,
  /** Longer snippets keep their first `headLines` and last `tailLines` lines. */
  maxLines: 40,
  headLines: 25,
  tailLines: 10,
  maxLineChars: 300,
} as const;

function cut(line: string): string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (text.length <= SNIPPET_LIMITS.maxLineChars) return text;
  return `${text.slice(0, SNIPPET_LIMITS.maxLineChars)} … [line truncated: ${text.length} chars]`;
}

/**
 * Lines of `text` covering the range `[from, to)` plus a little context, numbered like `read`
 * output (`N: text`). `line` is the 1-based line of `from`, which the caller already knows, so
 * nothing before the snippet is scanned.
 *
 * @example
 * numberedSnippet('a\nb\nc\nd\n', 4, 6, 3); // '1: a\n2: b\n3: c\n4: d'
 */
export function numberedSnippet(text: string, from: number, to: number, line: number): string {
  let start = from > 0 ? text.lastIndexOf('\n', from - 1) + 1 : 0;
  let firstLine = line;
  for (let i = 0; i < SNIPPET_LIMITS.contextLines && start > 0; i += 1) {
    start = start >= 2 ? text.lastIndexOf('\n', start - 2) + 1 : 0;
    firstLine -= 1;
  }
  const last = Math.min(to > from ? to - 1 : from, text.length);
  let end = text.indexOf('\n', last);
  for (let i = 0; i < SNIPPET_LIMITS.contextLines && end !== -1; i += 1) {
    end = text.indexOf('\n', end + 1);
  }
  if (end === -1) end = text.length;
  const lines = text.slice(start, end).split('\n');
  // A final line break does not start another line (read does not show one either).
  if (end === text.length && text.endsWith('\n') && lines.length > 1) lines.pop();
  const numbered = lines.map((entry, i) => `${firstLine + i}: ${cut(entry)}`);
  if (numbered.length <= SNIPPET_LIMITS.maxLines) return numbered.join('\n');
  const hidden = numbered.length - SNIPPET_LIMITS.headLines - SNIPPET_LIMITS.tailLines;
  return [
    ...numbered.slice(0, SNIPPET_LIMITS.headLines),
    `… (${hidden} lines not shown) …`,
    ...numbered.slice(-SNIPPET_LIMITS.tailLines),
  ].join('\n');
}
