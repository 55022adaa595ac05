import { createDecipheriv, createHash } from 'node:crypto';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BLOCK = 16;

/**
 * Decrypt the `encrypt` field of a Feishu event: base64 of a 16-byte IV followed by AES-256-CBC
 * ciphertext (PKCS#7 padding), keyed with the sha256 of the encrypt key; the plaintext is UTF-8.
 * Returns undefined for anything that is not such a value for this key (not base64, too short, not
 * whole blocks, bad padding, invalid UTF-8), so a caller answers one generic error.
 *
 * @example
 * const text = decryptEvent(body.encrypt, encryptKey);
 * if (text === undefined) return c.json({ error: 'bad_request' }, 400);
 */
export function decryptEvent(encrypted: string, encryptKey: string): string | undefined {
  if (encrypted.length % 4 !== 0 || !BASE64.test(encrypted)) return undefined;
  const buffer = Buffer.from(encrypted, 'base64');
  if (buffer.length < 2 * BLOCK || buffer.length % BLOCK !== 0) return undefined;
  const key = createHash('sha256').update(encryptKey, 'utf8').digest();
  try {
    const decipher = createDecipheriv('aes-256-cbc', key, buffer.subarray(0, BLOCK));
    const plain = Buffer.concat([decipher.update(buffer.subarray(BLOCK)), decipher.final()]);
    return new TextDecoder('utf-8', { fatal: true }).decode(plain);
  } catch {
    return undefined;
  }
}
