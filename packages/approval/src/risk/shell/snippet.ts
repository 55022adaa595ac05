import { escapeInvisible } from './invisible-characters.js';

/**
 * Text short enough for a message: the first line, at most 60 characters, invisible characters
 * escaped.
 *
 * @example
 * snippet('rm -rf x\nls'); // 'rm -rf x…'
 */
export function snippet(text: string): string {
  const line = escapeInvisible(text.split('\n', 1)[0] ?? '');
  if (line.length > 60) return `${line.slice(0, 59)}…`;
  return line.length < text.length ? `${line}…` : line;
}
