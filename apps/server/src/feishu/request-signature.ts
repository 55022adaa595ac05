import { createHash } from 'node:crypto';
import { safeEqual } from './safe-equal.js';

/** How far a request's timestamp may be from now: Feishu retries a delivery for about 7 hours. */
export const SIGNATURE_WINDOW_MS = 12 * 60 * 60 * 1000;

/** The three signature headers of one request, as received (any may be missing). */
export interface SignatureHeaders {
  timestamp: string | undefined;
  nonce: string | undefined;
  signature: string | undefined;
}

/**
 * Why a signature was refused, for the log (never the expected value).
 *
 * @example
 * const failure: SignatureFailure = 'mismatch';
 */
export type SignatureFailure = 'missing headers' | 'bad timestamp' | 'stale timestamp' | 'mismatch';

/**
 * Check `X-Lark-Signature` as Feishu documents it: the hex sha256 of timestamp, nonce and encrypt
 * key followed by the raw body bytes exactly as received (never a re-serialised body: a
 * pretty-printed or differently escaped body must verify over its own bytes), compared in constant
 * time. The timestamp must be seconds since the epoch within 12 hours of `nowMs`.
 *
 * @example
 * const failure = checkSignature(headers, rawBody, encryptKey, Date.now());
 * if (failure) return c.json({ error: 'unauthorized' }, 401);
 */
export function checkSignature(
  headers: SignatureHeaders,
  rawBody: Uint8Array,
  encryptKey: string,
  nowMs: number,
): SignatureFailure | undefined {
  const { timestamp, nonce, signature } = headers;
  if (!timestamp || !nonce || !signature) return 'missing headers';
  if (!/^\d{1,12}$/.test(timestamp)) return 'bad timestamp';
  if (Math.abs(nowMs - Number(timestamp) * 1000) > SIGNATURE_WINDOW_MS) return 'stale timestamp';
  const expected = createHash('sha256')
    .update(Buffer.from(timestamp + nonce + encryptKey, 'utf8'))
    .update(rawBody)
    .digest('hex');
  return safeEqual(signature, expected) ? undefined : 'mismatch';
}
