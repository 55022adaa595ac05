import {
  applySecretRules,
  isSecretName,
  type SecretRule,
  secretRules,
} from '@tiny-claw/core/utils';

const MARKER_START = '[REDACTED:';
// A marker names its rule (`…:github-token:…`), which a keyword rule must not read as `token:`.
const MARKER = /\[REDACTED:[^\]\s]{0,80}\]/;
const MIN_SECRET_TEXT = 8;
const CACHE_MAX_TEXT = 256;
const CACHE_MAX_ENTRIES = 4096;

/**
 * Replaces secrets with `[REDACTED:<rule>:<fingerprint>]`. The fingerprint is a keyed hash of the
 * secret, so two mentions of one secret stay correlatable without revealing it.
 *
 * @example
 * const redactor = new Redactor((secret) => hmacHex(salt, secret).slice(0, 8));
 * redactor.redactText('token=abc123'); // 'token=[REDACTED:keyword-assignment:1a2b3c4d]'
 */
export class Redactor {
  readonly #fingerprint: (secret: string) => string;
  readonly #rules: readonly SecretRule[];
  // Attribute values repeat (tool names, phases, models): remember short answers.
  readonly #cache = new Map<string, string>();

  constructor(fingerprint: (secret: string) => string, rules: readonly SecretRule[] = secretRules) {
    this.#fingerprint = fingerprint;
    this.#rules = rules;
  }

  /**
   * The marker that stands in for `secret`.
   *
   * @example
   * redactor.marker('key', 'hunter2'); // '[REDACTED:key:9f86d081]'
   */
  marker(rule: string, secret: string): string {
    return `${MARKER_START}${rule}:${this.#fingerprint(secret)}]`;
  }

  /**
   * Apply every value rule to `text`.
   *
   * @example
   * redactor.redactText('Authorization: Bearer abcdefghijklmnop');
   * // 'Authorization: Bearer [REDACTED:authorization-header:…]'
   */
  redactText(text: string): string {
    // No rule matches fewer characters than this (`token=abc` is the shortest).
    if (text.length < MIN_SECRET_TEXT) return text;
    const cacheable = text.length <= CACHE_MAX_TEXT;
    if (cacheable) {
      const cached = this.#cache.get(text);
      if (cached !== undefined) return cached;
    }
    const out = applySecretRules(
      text,
      this.#rules,
      (rule, secret) => this.marker(rule, secret),
      MARKER,
    );
    if (cacheable) {
      if (this.#cache.size >= CACHE_MAX_ENTRIES) this.#cache.clear();
      this.#cache.set(text, out);
    }
    return out;
  }

  /**
   * True when a value stored under `key` must be redacted whatever it looks like: the shared
   * word-by-word name rule, so `DATABASE_PASS` and `NPM_CONFIG__AUTH` are secret while
   * `max_tokens` and `OLDPWD` are not.
   *
   * @example
   * redactor.isSecretKey('openaiApiKey'); // true
   * redactor.isSecretKey('max_tokens'); // false
   */
  isSecretKey(key: string): boolean {
    return isSecretName(key);
  }
}
