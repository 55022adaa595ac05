/**
 * One value-based redaction rule. `pattern` must carry the `g` and `d` flags; the secret is the
 * named group `secret` when present, else the whole match, so context words such as `Bearer ` or
 * `password=` stay readable.
 *
 * @example
 * const rule: SecretRule = { id: 'acme-token', pattern: /\bacme_[a-z0-9]{32}/gd };
 */
export interface SecretRule {
  readonly id: string;
  readonly pattern: RegExp;
  /** Extra check on a candidate (entropy, character mix); the match is kept when it returns false. */
  readonly accept?: (secret: string) => boolean;
}

// Every quantifier in a prefix is bounded or anchored on a literal, so a megabyte of adversarial
// text is scanned in linear time. The look-ahead stops a rule from redacting a marker that an
// earlier rule (or an earlier pass) already put there, in either spelling.
const NOT_REDACTED = '(?!\\[REDACTED)';

/**
 * The value rules, applied in order to every string that may carry a credential: provider keys,
 * VCS and cloud tokens, JWTs, PEM blocks, auth headers, URL credentials and `key=value`
 * assignments (abridged from gitleaks and detect-secrets). Specific rules come first so a marker
 * names the most precise rule.
 *
 * @example
 * secretRules.map((rule) => rule.id); // ['private-key', 'anthropic-api-key', …]
 */
export const secretRules: readonly SecretRule[] = [
  {
    id: 'private-key',
    // An unterminated block (cut by a stream or a truncation) is redacted up to the end of the text.
    pattern:
      /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|$)/dg,
  },
  { id: 'anthropic-api-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{8,}/dg },
  { id: 'openai-api-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/dg },
  { id: 'stripe-key', pattern: /\b[rs]k_(?:test|live|prod)_[A-Za-z0-9]{10,99}\b/dg },
  { id: 'github-token', pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}/dg },
  { id: 'github-pat', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/dg },
  { id: 'gitlab-token', pattern: /\bgl(?:pat|dt|ptt|rt)-[A-Za-z0-9_-]{20,}/dg },
  { id: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,}/dg },
  { id: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/dg },
  { id: 'pypi-token', pattern: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/dg },
  { id: 'groq-api-key', pattern: /\bgsk_[A-Za-z0-9]{40,}/dg },
  { id: 'xai-api-key', pattern: /\bxai-[A-Za-z0-9]{40,}/dg },
  { id: 'sendgrid-api-key', pattern: /\bSG\.[A-Za-z0-9_-]{20,24}\.[A-Za-z0-9_-]{40,46}/dg },
  { id: 'google-oauth-token', pattern: /\bya29\.[A-Za-z0-9_-]{20,}/dg },
  // Real key ids are base32 (A-Z, 2-7), but examples and fakes use any digit; both are redacted.
  { id: 'aws-access-key-id', pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/dg },
  { id: 'slack-token', pattern: /\bxox[abprse]-[A-Za-z0-9-]{10,}/dg },
  {
    id: 'slack-webhook',
    pattern: /hooks\.slack\.com\/(?:services|workflows)\/(?<secret>[A-Za-z0-9/_-]{8,})/dg,
  },
  { id: 'gcp-api-key', pattern: /\bAIza[\w-]{35}/dg },
  { id: 'jwt', pattern: /\bey[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*/dg },
  {
    id: 'authorization-header',
    pattern: new RegExp(
      `authorization(?:\\\\?["'])?\\s*[:=]\\s*(?:\\\\?["'])?(?:(?:bearer|basic|token|digest)\\s+)?(?<secret>${NOT_REDACTED}[^\\s"',;\\\\]{3,})`,
      'gdi',
    ),
  },
  { id: 'bearer-token', pattern: /\b[Bb]earer\s+(?<secret>[A-Za-z0-9._~+/=-]{8,})/dg },
  {
    id: 'url-credentials',
    // Anchored on the literal `://` (the scheme does not matter), so scanning stays linear.
    pattern: /:\/\/[^\s/:@]{0,256}:(?<secret>[^\s/@]{1,256})@/dg,
  },
  {
    id: 'url-query-secret',
    pattern:
      /[?&](?:access_token|refresh_token|id_token|token|api_key|apikey|key|sig|signature|secret|password|auth)=(?<secret>[^&\s#"']+)/dgi,
  },
  {
    id: 'keyword-assignment',
    pattern: new RegExp(
      '(?:token|secret|password|passwd|api[_-]?key|apikey|access[_-]?key|account[_-]?key|private[_-]?key|' +
        'client[_-]?secret|auth[_-]?key|credentials?|signature|encrypt[_-]?key)' +
        `(?:\\\\?["'])?\\s*[:=]\\s*(?:\\\\?["'])?(?<secret>${NOT_REDACTED}` +
        `(?!(?:true|false|null|none|undefined)\\b)[^\\s"'&,;\\\\]{3,})`,
      'gdi',
    ),
  },
  {
    id: 'high-entropy',
    pattern: /(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{32,}={0,2}(?![A-Za-z0-9+/_=-])/dg,
    accept: looksRandom,
  },
];

/**
 * Apply `rules` to `text` in order, replacing each secret with what `replace` returns for it.
 * Matches that overlap a `protect` match (the markers a caller writes, say) are left alone, so a
 * marker that names its rule (`…:github-token:…`) is never read as a `token:` assignment.
 *
 * @example
 * applySecretRules('token=abc123', secretRules, (rule) => `<${rule}>`); // 'token=<keyword-assignment>'
 */
export function applySecretRules(
  text: string,
  rules: readonly SecretRule[],
  replace: (ruleId: string, secret: string) => string,
  protect?: RegExp,
): string {
  let out = text;
  for (const rule of rules) out = applyRule(out, rule, replace, protect);
  return out;
}

function applyRule(
  text: string,
  rule: SecretRule,
  replace: (ruleId: string, secret: string) => string,
  protect: RegExp | undefined,
): string {
  rule.pattern.lastIndex = 0;
  // Cheap exit: most strings match no rule, and building a new string costs more than a test.
  if (!rule.pattern.test(text)) return text;
  rule.pattern.lastIndex = 0;
  const guarded = protect ? rangesOf(text, protect) : [];
  let out = '';
  let last = 0;
  for (const match of text.matchAll(rule.pattern)) {
    const range = match.indices?.groups?.secret ?? match.indices?.[0];
    if (!range) continue;
    const [start, end] = range;
    const matchEnd = match.index + match[0].length;
    if (guarded.some(([from, to]) => start < to && matchEnd > from)) continue;
    const secret = text.slice(start, end);
    if (rule.accept && !rule.accept(secret)) continue;
    out += text.slice(last, start) + replace(rule.id, secret);
    last = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

function rangesOf(text: string, pattern: RegExp): Array<[number, number]> {
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  const ranges: Array<[number, number]> = [];
  for (const match of text.matchAll(new RegExp(pattern.source, flags))) {
    ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

/**
 * A bare token is only a secret when it mixes upper case, lower case and digits and its Shannon
 * entropy reaches detect-secrets' base64 threshold (4.5 bits per character). That keeps git SHAs,
 * UUIDs, paths and identifiers readable.
 */
function looksRandom(token: string): boolean {
  // Credentials are short; a longer run is data (a blob, a minified line), and scoring it is slow.
  if (token.length > 1024) return false;
  if (!/[A-Z]/.test(token) || !/[a-z]/.test(token) || !/[0-9]/.test(token)) return false;
  // Path segments are words; a random key rarely has more than a few slashes.
  if ((token.match(/\//g)?.length ?? 0) > token.length / 16) return false;
  return shannonEntropy(token.replace(/=+$/, '')) >= 4.5;
}

/**
 * Bits per character of `text`.
 *
 * @example
 * shannonEntropy('aaaa'); // 0
 */
export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
