/**
 * Fake credentials in the shapes the redaction rules look for, assembled at run time so that no
 * secret-shaped literal sits in the repository (secret scanners would flag it, and rightly).
 */
function chars(alphabet: string, length: number, seed: number): string {
  let out = '';
  let x = seed;
  for (let i = 0; i < length; i += 1) {
    x = (x * 1103515245 + 12345) % 2147483648;
    // The high bits: the low bits of this generator repeat with a short period.
    out += alphabet[Math.floor((x / 2147483648) * alphabet.length)];
  }
  return out;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const BASE64 = `${ALNUM}+/`;

export const fakeSecrets = {
  openai: `sk-${'proj'}-${chars(ALNUM, 74, 1)}${'T3Blbk'}FJ${chars(ALNUM, 74, 2)}`,
  openaiLegacy: `sk-${chars(ALNUM, 20, 3)}${'T3Blbk'}FJ${chars(ALNUM, 20, 4)}`,
  anthropic: `sk-${'ant'}-api03-${chars(`${ALNUM}_-`, 93, 5)}AA`,
  github: `gh${'p'}_${chars(ALNUM, 36, 6)}`,
  githubPat: `github${'_pat'}_${chars(`${ALNUM}_`, 82, 7)}`,
  awsAccessKeyId: `AK${'IA'}${chars(BASE32, 16, 8)}`,
  awsSecretKey: chars(BASE64, 40, 9),
  slack: `xo${'xb'}-${chars('0123456789', 12, 10)}-${chars('0123456789', 12, 11)}-${chars(ALNUM, 24, 12)}`,
  gcp: `AI${'za'}${chars(`${ALNUM}_-`, 35, 13)}`,
  jwt: `ey${'J'}${chars(ALNUM, 30, 14)}.ey${'J'}${chars(ALNUM, 40, 15)}.${chars(`${ALNUM}_-`, 43, 16)}`,
  pem: [
    `-----BEGIN ${'RSA PRIVATE'} KEY-----`,
    chars(BASE64, 64, 17),
    chars(BASE64, 64, 18),
    chars(BASE64, 40, 19),
    `-----END ${'RSA PRIVATE'} KEY-----`,
  ].join('\n'),
};

/** The base64 body lines of {@link fakeSecrets.pem}: none of them may reach a file. */
export const pemBodyLines = fakeSecrets.pem.split('\n').slice(1, -1);
