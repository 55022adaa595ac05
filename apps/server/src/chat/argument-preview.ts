const MAX_VALUE_CHARS = 80;
const MAX_ARGUMENTS = 8;

/**
 * One line per argument of a tool call, short enough for a chat: a short one-line string is shown
 * quoted, a long or multi-line one by its start and size, anything else as cut JSON. Knows no tool
 * by name, so every tool is shown the same way.
 *
 * @example
 * argumentLines({ path: '.env', content: 'A=1\nB=2\n' }); // ['path: ".env"', 'content: "A=1⏎B=2⏎" (8 chars, 3 lines)']
 */
export function argumentLines(args: Record<string, unknown>): string[] {
  const entries = Object.entries(args);
  const lines = entries.slice(0, MAX_ARGUMENTS).map(([key, value]) => `${key}: ${preview(value)}`);
  if (entries.length > MAX_ARGUMENTS) lines.push(`… and ${entries.length - MAX_ARGUMENTS} more`);
  return lines;
}

/**
 * The arguments on one line, for a progress message.
 *
 * @example
 * argumentsInline({ path: 'a.txt' }); // 'path: "a.txt"'
 */
export function argumentsInline(args: Record<string, unknown>, maxChars = 120): string {
  const text = argumentLines(args).join(', ');
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

function preview(value: unknown): string {
  if (typeof value === 'string') {
    const shown = value.replaceAll('\n', '⏎');
    if (value.length <= MAX_VALUE_CHARS && !value.includes('\n')) return JSON.stringify(value);
    const lines = value.split('\n').length;
    const head = shown.length > MAX_VALUE_CHARS ? `${shown.slice(0, MAX_VALUE_CHARS)}…` : shown;
    return `${JSON.stringify(head)} (${value.length} chars, ${lines} line${lines === 1 ? '' : 's'})`;
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) return String(value);
  return json.length > MAX_VALUE_CHARS ? `${json.slice(0, MAX_VALUE_CHARS)}…` : json;
}
