import { isSecretName, SECRET_NAME_HINT } from './secret-names.js';

/**
 * One value-based redaction rule. `pattern` must carry the `g` and `d` flags (only `g` with a
 * {@link SecretRule.value}); the secret is the named group `secret` when present, else the whole
 * match, so context words such as `Bearer ` or `password=` stay readable.
 *
 * @example
 * const rule: SecretRule = { id: 'acme-token', pattern: /\bacme_[a-z0-9]{32}/gd };
 */
export interface SecretRule {
  readonly id: string;
  readonly pattern: RegExp;
  /**
   * Extra check on a candidate (entropy, character mix, the name it is assigned to); the match is
   * kept when it returns false. With {@link SecretRule.value}, asked before the value is read.
   */
  readonly accept?: (secret: string, match: RegExpMatchArray) => boolean;
  /**
   * For a rule whose `pattern` finds what comes before a secret (a name and its `=`): a sticky
   * pattern (`y` and `d` flags) for the secret right after an accepted match, its group `secret`
   * or all of it. The value is read only when the name is accepted, so text full of `a=a=a=…`
   * costs no value scan (and `pattern` needs no `d` flag, which is slow on many matches).
   */
  readonly value?: RegExp;
}

// Every quantifier in a prefix is bounded or anchored on a literal, so a megabyte of adversarial
// text is scanned in linear time. The look-ahead stops a rule from redacting a marker that an
// earlier rule (or an earlier pass) already put there, in either spelling.
const NOT_REDACTED = '(?!\\[REDACTED)';
// A name that may be secret: one holding a hint word, at most 64 characters on either side.
const HINTED_NAME = `[A-Za-z0-9_.-]{0,64}(?:${SECRET_NAME_HINT}|sig)[A-Za-z0-9_.-]{0,64}`;

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
    // `key` and `sig` alone are credentials in a query string (API keys, signed URLs).
    pattern: new RegExp(`[?&](?<name>${HINTED_NAME})=`, 'gi'),
    accept: (_name, match) => {
      const name = match.groups?.name ?? '';
      return /^(?:key|sig)$/i.test(name) || isSecretName(name);
    },
    value: /[^&\s#"']+/dy,
  },
  {
    id: 'keyword-assignment',
    // Anchored on the `:` or `=` itself, with the name before it read by a look-behind that runs
    // only there; whether the name is secret is decided word by word. An auth scheme
    // (`Authorization: Bearer x`) is left to the header rules.
    pattern: new RegExp(`[:=](?<=(?<name>${HINTED_NAME})(?:\\\\?["'])?\\s{0,8}[:=])`, 'gi'),
    accept: (_name, match) => isSecretName(match.groups?.name ?? ''),
    value: new RegExp(
      `[ \\t]*(?:\\\\?["'])?(?<secret>${NOT_REDACTED}(?!(?:true|false|null|none|undefined)\\b)` +
        `(?!(?:bearer|basic|digest)\\s)[^\\s"'&,;\\\\]{3,})`,
      'dyi',
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
  const pattern = rule.pattern;
  let out = '';
  let last = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const range = secretRange(text, rule, match);
    if (!range) continue;
    const [start, end] = range;
    // A rule may find its secret past the end of the match itself.
    const matchEnd = Math.max(match.index + match[0].length, end);
    if (guarded.some(([from, to]) => start < to && matchEnd > from)) continue;
    const secret = text.slice(start, end);
    if (!rule.value && rule.accept && !rule.accept(secret, match)) continue;
    out += text.slice(last, start) + replace(rule.id, secret);
    last = end;
    // Nothing inside a replaced secret is looked at again (`password=a=b`).
    if (pattern.lastIndex < end) pattern.lastIndex = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Where the secret of `match` lies: its `secret` group, all of it, or the value read after it. */
function secretRange(
  text: string,
  rule: SecretRule,
  match: RegExpExecArray,
): [number, number] | undefined {
  if (!rule.value) return match.indices?.groups?.secret ?? match.indices?.[0];
  if (rule.accept && !rule.accept(match[0], match)) return undefined;
  rule.value.lastIndex = match.index + match[0].length;
  const value = rule.value.exec(text);
  return value ? (value.indices?.groups?.secret ?? value.indices?.[0]) : undefined;
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
