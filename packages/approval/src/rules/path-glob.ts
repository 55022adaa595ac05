/**
 * Whether a `/`-separated relative path matches a glob: `*` matches any run of characters within
 * one path segment, `?` one character, and a `**` segment any number of segments (none included).
 * A wildcard never matches a segment that starts with a dot unless the pattern spells the dot, so
 * `docs/**` does not reach `docs/.env`. Everything else matches itself.
 *
 * @example
 * matchesPathGlob('docs/guide/intro.md', 'docs/**'); // true
 * matchesPathGlob('docs/.env', 'docs/**'); // false
 */
export function matchesPathGlob(path: string, pattern: string): boolean {
  const parts = path.split('/').filter((part) => part !== '');
  const globs = pattern.split('/').filter((part) => part !== '');
  return matchSegments(parts, 0, globs, 0);
}

function matchSegments(parts: string[], p: number, globs: string[], g: number): boolean {
  if (g === globs.length) return p === parts.length;
  const glob = globs[g] as string;
  if (glob === '**') {
    for (let next = p; next <= parts.length; next += 1) {
      if (matchSegments(parts, next, globs, g + 1)) return true;
      const part = parts[next];
      if (part === undefined || part.startsWith('.')) return false;
    }
    return false;
  }
  const part = parts[p];
  if (part === undefined || !segmentRegex(glob).test(part)) return false;
  return matchSegments(parts, p + 1, globs, g + 1);
}

function segmentRegex(glob: string): RegExp {
  let source = '';
  for (const char of glob) {
    if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  // A leading wildcard does not match a leading dot.
  const hidden = glob.startsWith('*') || glob.startsWith('?') ? '(?!\\.)' : '';
  return new RegExp(`^${hidden}${source}$`, 'u');
}
