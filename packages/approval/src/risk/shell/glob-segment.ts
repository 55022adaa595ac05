/**
 * Whether a glob segment (`*`, `.g?t`, `[ab]c`) could match `name`. As in bash without
 * `dotglob`, only a literal dot matches a leading dot (not `*`, `?` or `[.]`). Brace lists are
 * expanded before this (see `expandBraces`).
 *
 * @example
 * globSegmentMatches('.gi?', '.git'); // true
 */
export function globSegmentMatches(segment: string, name: string): boolean {
  if (name.startsWith('.') && !segment.startsWith('.')) return false;
  let source = '';
  for (let index = 0; index < segment.length; index += 1) {
    const char = segment[index] as string;
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else if (char === '[') {
      const close = segment.indexOf(']', index + 2);
      if (close < 0) source += '\\[';
      else {
        const body = segment
          .slice(index + 1, close)
          .replace(/^[!^]/, '^')
          .replace(/\\/g, '\\\\');
        source += `[${body}]`;
        index = close;
      }
    } else source += char.replace(/[.+^$(){}|\\]/g, '\\$&');
  }
  try {
    return new RegExp(`^${source}$`, 'i').test(name);
  } catch {
    return true;
  }
}
