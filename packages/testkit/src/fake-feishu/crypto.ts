import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * The `X-Lark-Signature` of one request as Feishu documents it: the lower-case hex sha256 of
 * timestamp, nonce and encrypt key (as UTF-8) followed by the raw body bytes. Written from the
 * documented algorithm, independently of the server's own check, so a test can catch a server that
 * hashes a re-serialised body instead of the bytes it received.
 *
 * @example
 * feishuSignature('1700000000', 'nonce', 'key', '{"a":1}'); // 64 hex characters
 */
export function feishuSignature(
  timestamp: string,
  nonce: string,
  encryptKey: string,
  rawBody: string | Uint8Array,
): string {
  return createHash('sha256')
    .update(Buffer.from(timestamp + nonce + encryptKey, 'utf8'))
    .update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
    .digest('hex');
}

/** Headers Feishu sends with a signed event, lower-case as Node reports them. */
export interface FeishuSignatureHeaders {
  'x-lark-request-timestamp': string;
  'x-lark-request-nonce': string;
  'x-lark-signature': string;
}

/**
 * Sign `rawBody` the way Feishu does and return the three headers to send with it.
 *
 * @example
 * const body = JSON.stringify({ encrypt: encryptFeishuEvent(event, key) });
 * await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...signFeishuRequest(body, key) }, body });
 */
export function signFeishuRequest(
  rawBody: string | Uint8Array,
  encryptKey: string,
  options: { timestamp?: string; nonce?: string } = {},
): FeishuSignatureHeaders {
  const timestamp = options.timestamp ?? String(Math.floor(Date.now() / 1000));
  const nonce = options.nonce ?? randomBytes(8).toString('hex');
  return {
    'x-lark-request-timestamp': timestamp,
    'x-lark-request-nonce': nonce,
    'x-lark-signature': feishuSignature(timestamp, nonce, encryptKey, rawBody),
  };
}

/**
 * Encrypt an event as Feishu does when an Encrypt Key is configured: AES-256-CBC with PKCS#7
 * padding, the key being the sha256 of the encrypt key, a random 16-byte IV, and the result
 * `base64(iv ‖ ciphertext)` — the value of the body's `encrypt` field.
 *
 * @example
 * const body = JSON.stringify({ encrypt: encryptFeishuEvent({ type: 'url_verification', challenge: 'c', token: 't' }, 'key') });
 */
export function encryptFeishuEvent(
  event: unknown,
  encryptKey: string,
  iv: Uint8Array = randomBytes(16),
): string {
  const plain = typeof event === 'string' ? event : JSON.stringify(event);
  const key = createHash('sha256').update(encryptKey, 'utf8').digest();
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  const encrypted = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, encrypted]).toString('base64');
}

/**
 * The inverse of {@link encryptFeishuEvent}: the decrypted text of an `encrypt` field.
 *
 * @throws Error when the value is not valid base64 ciphertext for this key.
 * @example
 * JSON.parse(decryptFeishuEvent(body.encrypt, 'key'));
 */
export function decryptFeishuEvent(encrypted: string, encryptKey: string): string {
  const buffer = Buffer.from(encrypted, 'base64');
  const key = createHash('sha256').update(encryptKey, 'utf8').digest();
  const decipher = createDecipheriv('aes-256-cbc', key, buffer.subarray(0, 16));
  return Buffer.concat([decipher.update(buffer.subarray(16)), decipher.final()]).toString('utf8');
}
