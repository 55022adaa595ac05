import { AESCipher } from '@larksuiteoapi/node-sdk';
import { encryptFeishuEvent, feishuSignature } from '@tiny-claw/testkit';
import { describe, expect, it } from 'vitest';
import { decryptEvent } from './decrypt-event.js';
import { checkSignature, SIGNATURE_WINDOW_MS } from './request-signature.js';
import { safeEqual } from './safe-equal.js';

const NOW = 1_760_000_000_000;
const ts = String(NOW / 1000);
const body = Buffer.from('{"encrypt":"abc"}');
const signed = (signature: string, timestamp = ts) => ({ timestamp, nonce: 'n1', signature });

describe('request signature', () => {
  it('accepts the documented sha256 of timestamp, nonce, key and the raw body', () => {
    const signature = feishuSignature(ts, 'n1', 'key', body);
    expect(checkSignature(signed(signature), body, 'key', NOW)).toBeUndefined();
  });

  it('refuses a signature over other bytes, another key, upper-case hex or a wrong length', () => {
    const good = feishuSignature(ts, 'n1', 'key', body);
    for (const signature of [
      feishuSignature(ts, 'n1', 'key', Buffer.from('{"encrypt": "abc"}')),
      feishuSignature(ts, 'n1', 'other', body),
      good.toUpperCase(),
      good.slice(1),
      `${good}0`,
    ]) {
      expect(checkSignature(signed(signature), body, 'key', NOW)).toBe('mismatch');
    }
  });

  it('refuses missing headers and timestamps that are not recent seconds', () => {
    const signature = feishuSignature(ts, 'n1', 'key', body);
    expect(checkSignature({ timestamp: ts, nonce: undefined, signature }, body, 'key', NOW)).toBe(
      'missing headers',
    );
    expect(checkSignature(signed(signature, '17e8'), body, 'key', NOW)).toBe('bad timestamp');
    const old = String((NOW - SIGNATURE_WINDOW_MS - 1000) / 1000);
    expect(
      checkSignature(signed(feishuSignature(old, 'n1', 'key', body), old), body, 'key', NOW),
    ).toBe('stale timestamp');
  });

  it('compares secrets of any length without throwing', () => {
    expect(safeEqual('a', 'a')).toBe(true);
    expect(safeEqual('', 'a'.repeat(64))).toBe(false);
    expect(safeEqual('a'.repeat(1000), 'a')).toBe(false);
  });
});

describe('event decryption', () => {
  it('decrypts what the documented algorithm encrypts, exactly as the SDK does', () => {
    const event = { schema: '2.0', header: { event_id: 'e1' }, text: '你好 ✓' };
    const encrypted = encryptFeishuEvent(event, 'my key');
    expect(decryptEvent(encrypted, 'my key')).toBe(new AESCipher('my key').decrypt(encrypted));
    expect(JSON.parse(decryptEvent(encrypted, 'my key') as string)).toEqual(event);
  });

  it('returns nothing for a wrong key, bad base64, a bare IV, partial blocks or bad padding', () => {
    const encrypted = encryptFeishuEvent({ a: 1 }, 'key');
    const bytes = Buffer.from(encrypted, 'base64');
    const tampered = Buffer.from(bytes);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] as number) ^ 1;
    for (const value of [
      'not*base64',
      bytes.subarray(0, 16).toString('base64'),
      bytes.subarray(0, bytes.length - 5).toString('base64'),
      tampered.toString('base64'),
    ]) {
      expect(decryptEvent(value, 'key')).toBeUndefined();
    }
    const wrongKey = decryptEvent(encrypted, 'other key');
    expect(wrongKey === undefined || !wrongKey.startsWith('{"a":1}')).toBe(true);
  });
});
