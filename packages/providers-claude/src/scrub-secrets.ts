// Upstream error text is untrusted: proxies and some APIs echo the key (or a masked part of it) back.
const KEY_PATTERNS: readonly RegExp[] = [
  /sk-ant-[A-Za-z0-9_\-*.]+/g,
  /sk-[A-Za-z0-9_\-*.]{4,}/g,
  /\b(?:Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi,
  /\b(x-api-key|api[_-]?key|authorization)(["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
];

/** Fragments shorter than this are too common to be evidence of a leaked key. */
const MIN_FRAGMENT = 4;

/**
 * What replaces anything that looks like a secret.
 *
 * @example
 * scrubSecrets('sk-ant-abc123', []) === REDACTED; // true
 */
export const REDACTED = '[redacted]';

/**
 * Remove anything that looks like an API key from `input`: `sk-ant-…` / `sk-…` tokens, bearer
 * credentials, `api_key=…` pairs, each known secret, and any word that is a fragment (≥ 4 chars) of
 * a known secret — an upstream "invalid key …abcd" must not leak the key's tail either.
 *
 * @example
 * scrubSecrets('bad key sk-ant-api03-XYZ', []); // 'bad key [redacted]'
 */
export function scrubSecrets(input: string, secrets: readonly string[]): string {
  let out = input;
  for (const secret of secrets) {
    if (secret.length > 0) out = out.split(secret).join(REDACTED);
  }
  for (const pattern of KEY_PATTERNS) {
    out = out.replace(pattern, (_match, name?: unknown, separator?: unknown) =>
      typeof name === 'string' && typeof separator === 'string'
        ? `${name}${separator}${REDACTED}`
        : REDACTED,
    );
  }
  const known = secrets.filter((secret) => secret.length >= MIN_FRAGMENT);
  if (known.length === 0) return out;
  // Masks such as `sk-…***abcd` split on `*` and `.`, so each visible run is checked on its own.
  const isFragment = (part: string): boolean =>
    part.length >= MIN_FRAGMENT && known.some((secret) => secret.includes(part));
  return out.replace(/[A-Za-z0-9_-]+/g, (word) =>
    isFragment(word) || word.split(/[-_]/).some(isFragment) ? REDACTED : word,
  );
}
