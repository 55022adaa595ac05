import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact-secrets.js';
import { isSecretName } from './secret-names.js';

const SECRET = [
  // passwords, in every spelling; `pass` and `pwd` as the last word
  'DATABASE_PASS',
  'SMTP_PASS',
  'db.pass',
  'dbPass',
  'pass',
  'MYSQL_PWD',
  'db-pwd',
  'DB_PASSWORD',
  'PGPASSWORD',
  'LDAP_PASSWD',
  'ftp_passwd',
  'GPG_PASSPHRASE',
  'KEYSTORE_PASSWORD',
  // auth, before, after or between words, and doubled separators
  'NPM_CONFIG__AUTH',
  'npm_config__authToken',
  '_authToken',
  'AUTH_HEADER',
  'BASIC_AUTH',
  'Proxy-Authorization',
  'SSH_AUTH_SOCK',
  // tokens and secrets
  'GITHUB_TOKEN',
  'GITHUBTOKEN',
  'AWS_SESSION_TOKEN',
  'refresh_token',
  'clientSecret',
  'SECRET_KEY_BASE',
  'app_secret',
  // credentials
  'GOOGLE_APPLICATION_CREDENTIALS',
  'AZURE_CREDENTIAL',
  'SERVICE_CREDS',
  'mycredentials',
  // keys: API, access and private keys, service keys, certificate keys
  'API_KEY',
  'apikey',
  'APIKEY',
  'accesskey',
  'x-api-key',
  'openaiApiKey',
  'APIKey',
  'AWS_SECRET_ACCESS_KEY',
  'ACCESS_KEY_ID',
  'STRIPE_KEY',
  'TLS_KEY',
  'SSL_CERT_KEY',
  'SSH_PRIVATE_KEY_PATH',
  'private',
  'AccountKey',
  'encrypt_key',
  // cookies and sessions
  'Set-Cookie',
  'COOKIES',
  'SESSION_ID',
  'sessionId',
  'JSESSIONID',
  'PHPSESSID',
  'session',
  // connection strings, signatures, salts, webhooks
  'SENTRY_DSN',
  'X-Lark-Signature',
  'PASSWORD_SALT',
  'SLACK_WEBHOOK_URL',
];

const NOT_SECRET = [
  'PWD',
  'OLDPWD',
  'PATH',
  'HOME',
  'LANG',
  'KEYBOARD',
  'MONKEY',
  'KEYTIMEOUT',
  'keyword',
  'key',
  'keys',
  'SORT_KEY',
  'PRIMARY_KEY',
  'PUBLIC_KEY',
  'cache_key',
  'i18nKey',
  'max_tokens',
  'input_tokens',
  'TOKENIZERS_PARALLELISM',
  'tokenizer',
  'passwordless_login',
  'PASS_THROUGH',
  'BYPASS_CACHE',
  'COMPASS_HOME',
  'AUTHOR',
  'GIT_AUTHOR_EMAIL',
  'authority',
  'XDG_SESSION_TYPE',
  'DBUS_SESSION_BUS_ADDRESS',
  'SSL_CERT_FILE',
  'DATABASE_URL',
  'FEISHU_APPROVERS',
  'TINY_CLAW_APPROVAL_PROVIDER',
  'NODE_OPTIONS',
  'x'.repeat(300),
];

describe('isSecretName decides by the words of a name', () => {
  it.each(SECRET)('%s holds a secret', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each(NOT_SECRET)('%s does not', (name) => {
    expect(isSecretName(name)).toBe(false);
  });
});

describe('an assignment in text is redacted when its name is secret', () => {
  it.each(SECRET.filter((name) => /^[\w.-]+$/.test(name)))('%s=… is redacted', (name) => {
    // `Proxy-Authorization=` is caught first by the header rule; either way the value is gone.
    expect(redactSecrets(`${name}=hunter2value`)).toMatch(
      new RegExp(`^${name.replace(/\./g, '\\.')}=\\[REDACTED:[a-z-]+\\]$`),
    );
  });

  it.each(NOT_SECRET.filter((name) => name.length < 64))('%s=… is kept', (name) => {
    expect(redactSecrets(`${name}=plainvalue`)).toBe(`${name}=plainvalue`);
  });

  it('reads names in JSON, escaped JSON, YAML and .npmrc', () => {
    expect(redactSecrets('{"DATABASE_PASS": "hunter2value"}')).toBe(
      '{"DATABASE_PASS": "[REDACTED:keyword-assignment]"}',
    );
    expect(redactSecrets('{\\"db_pwd\\":\\"hunter2value\\"}')).toBe(
      '{\\"db_pwd\\":\\"[REDACTED:keyword-assignment]\\"}',
    );
    expect(redactSecrets('smtp:\n  pass: hunter2value\n')).toBe(
      'smtp:\n  pass: [REDACTED:keyword-assignment]\n',
    );
    expect(redactSecrets('//registry.npmjs.org/:_auth=dXNlcjpwYXNz')).toBe(
      '//registry.npmjs.org/:_auth=[REDACTED:keyword-assignment]',
    );
  });

  it('redacts query parameters named like secrets, and key= and sig=', () => {
    expect(redactSecrets('https://h/x?db_pass=abc&page=2&key=k1&X-Amz-Signature=s1')).toBe(
      'https://h/x?db_pass=[REDACTED:url-query-secret]&page=2&key=[REDACTED:url-query-secret]&X-Amz-Signature=[REDACTED:url-query-secret]',
    );
  });
});
