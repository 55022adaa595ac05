/** Words that make a name secret wherever they stand in it: `DB_PASSWORD`, `authToken`, `X-Hub-Signature`. */
const SECRET_WORDS = new Set([
  'auth',
  'authentication',
  'authorization',
  'cookie',
  'cookies',
  'credential',
  'credentials',
  'creds',
  'dsn',
  'passphrase',
  'password',
  'passwords',
  'passwd',
  'private',
  'salt',
  'secret',
  'secrets',
  'sessionid',
  'signature',
  'token',
  'webhook',
]);

/**
 * Endings that make a run of letters written without separators secret, alone or after other
 * letters: `apikey`, `PGPASSWORD`, `GITHUBTOKEN`, `JSESSIONID`. Only endings, so `tokenizer` and
 * `passwordless` stay readable.
 */
const SECRET_ENDINGS = [
  'token',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'credential',
  'credentials',
  'apikey',
  'accesskey',
  'privatekey',
  'secretkey',
  'sessionid',
  'sessid',
];

/**
 * What a `key` is when the word before it says so: a sort, primary or cache key is an index, not
 * a credential. Any other key in a longer name (`API_KEY`, `STRIPE_KEY`, `TLS_KEY`) is secret.
 */
const HARMLESS_KEY_KINDS = new Set([
  'cache',
  'composite',
  'dedup',
  'dedupe',
  'foreign',
  'group',
  'hash',
  'i18n',
  'idempotency',
  'lookup',
  'partition',
  'primary',
  'pub',
  'public',
  'range',
  'routing',
  'row',
  'shard',
  'sort',
  'translation',
  'unique',
]);

/** Names longer than this are data, not names; they are never read as secret names. */
const MAX_NAME_CHARS = 200;

/**
 * Every secret name holds one of these runs of letters (any case); most names hold none, and are
 * answered without being split into words. The assignment rules look for them first too.
 */
export const SECRET_NAME_HINT =
  'pass|pwd|auth|token|secret|cred|key|private|cookie|sess|signature|salt|dsn|webhook';
const MAY_BE_SECRET = new RegExp(SECRET_NAME_HINT, 'i');

// Text repeats its names (`"path":` in every JSON object): remember recent answers.
const answers = new Map<string, boolean>();
const MAX_REMEMBERED = 2048;

/**
 * The lower-case words of a name: split on `_`, `-`, `.`, `/`, `:`, blanks and camelCase humps
 * (`APIKey` → `api`, `key`; `npm_config__authToken` → `npm`, `config`, `auth`, `token`).
 */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_\-./:]+/)
    .filter((word) => word !== '');
}

/**
 * True when a value stored under `name` (a variable, a header, a JSON key, an assignment's left
 * side) is a credential whatever the value looks like. Word by word, so `OLDPWD`, `KEYBOARD`,
 * `max_tokens`, `tokenizer` and `passwordless_login` are not secret while `DATABASE_PASS`,
 * `NPM_CONFIG__AUTH`, `MYSQL_PWD`, `api-key`, `openaiApiKey`, `SENTRY_DSN`, `X-Hub-Signature`
 * and `JSESSIONID` are. A secret-looking word counts anywhere; `pass` and `pwd` only last (so
 * `PASS_THROUGH` and a lone `PWD`, the working directory, are not); `key` only in a longer name
 * and not after an index word (`SORT_KEY`, `PUBLIC_KEY`); `session` only last or before `id`.
 *
 * @example
 * isSecretName('DATABASE_PASS'); // true
 * isSecretName('OLDPWD'); // false
 */
export function isSecretName(name: string): boolean {
  if (name.length > MAX_NAME_CHARS || !MAY_BE_SECRET.test(name)) return false;
  let answer = answers.get(name);
  if (answer === undefined) {
    answer = hasSecretWord(nameWords(name));
    if (answers.size >= MAX_REMEMBERED) answers.clear();
    answers.set(name, answer);
  }
  return answer;
}

function hasSecretWord(words: readonly string[]): boolean {
  const last = words.length - 1;
  return words.some((word, index) => {
    if (SECRET_WORDS.has(word)) return true;
    if (SECRET_ENDINGS.some((ending) => word.endsWith(ending))) return true;
    switch (word) {
      case 'pass':
        return index === last;
      case 'pwd':
        return index === last && last > 0;
      case 'key':
      case 'keys':
        return last > 0 && !HARMLESS_KEY_KINDS.has(words[index - 1] ?? '');
      case 'session':
        return index === last || words[index + 1] === 'id';
      default:
        return false;
    }
  });
}
