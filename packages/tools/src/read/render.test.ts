import { describe, expect, it } from 'vitest';
import { READ_LIMITS } from './limits.js';
import { renderText, renderUtf8 } from './render.js';

/** Small deterministic PRNG (mulberry32), so a failure names a reproducible seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['a', 'xyz ', '\t', 'é', '中文', '😀', '\r', '\uFEFF', ' '];
const INVALID = [[0xff], [0xe4, 0xb8], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf0, 0x9f]];

/** Random file bytes: short, long and cut-length lines, multi-byte text, CRLF, invalid bytes. */
function randomFile(next: () => number, invalid: boolean): Buffer {
  const parts: Buffer[] = [];
  const lines = Math.floor(next() * 400);
  for (let i = 0; i < lines; i += 1) {
    const kind = next();
    let length = Math.floor(next() * 80);
    if (kind > 0.97) length = READ_LIMITS.maxLineChars + Math.floor(next() * 3000);
    else if (kind > 0.9) length = 300 + Math.floor(next() * 1500);
    let line = '';
    while (line.length < length) line += PIECES[Math.floor(next() * PIECES.length)];
    parts.push(Buffer.from(line, 'utf8'));
    if (invalid && next() < 0.05) parts.push(Buffer.from(INVALID[Math.floor(next() * 5)] ?? []));
    if (i < lines - 1 || next() < 0.5) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

describe('rendering only the shown window of UTF-8 bytes', () => {
  it('gives exactly what rendering the whole decoded file gives, for any offset and limit', () => {
    const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
    let capped = 0;
    for (let seed = 1; seed <= 150; seed += 1) {
      const next = random(seed);
      const bytes = randomFile(next, seed % 3 === 0);
      if (bytes.length === 0) continue;
      const whole = decoder.decode(bytes);
      const total = whole.split('\n').length - (whole.endsWith('\n') ? 1 : 0);
      const offsets = [1, 2, Math.floor(next() * total) + 1, total, total + 1, total + 5];
      for (const offset of offsets) {
        if (offset < 1) continue;
        const limit = next() < 0.5 ? READ_LIMITS.defaultLimit : 1 + Math.floor(next() * 50);
        const windowed = renderUtf8(bytes, offset, limit, (range) => decoder.decode(range));
        expect(windowed, `seed ${seed} offset ${offset} limit ${limit}`).toEqual(
          renderText(whole, offset, limit),
        );
        if (!('beyond' in windowed) && windowed.content.includes('output capped')) capped += 1;
      }
    }
    // The cases include windows cut by the output cap, not only by limit or the end of the file.
    expect(capped).toBeGreaterThan(20);
  });

  it('keeps the output cap on a file of long lines and names the total line count', () => {
    const line = `${'é'.repeat(3000)}\n`;
    const bytes = Buffer.from(line.repeat(200));
    const shown = renderUtf8(bytes, 1, 2000, (range) => Buffer.from(range).toString('utf8'));
    expect(shown).toMatchObject({ totalLines: 200, truncated: true });
    if ('beyond' in shown) throw new Error('unexpected beyond');
    expect(Buffer.byteLength(shown.content)).toBeLessThanOrEqual(READ_LIMITS.maxOutputBytes);
    expect(shown.content).toContain('output capped at 50 KiB');
  });

  it('decodes only about one output of a large file', () => {
    const bytes = Buffer.from(`${'x'.repeat(99)}\n`.repeat(100_000));
    const decoded: number[] = [];
    renderUtf8(bytes, 50_000, 2000, (range) => {
      decoded.push(range.byteLength);
      return Buffer.from(range).toString('utf8');
    });
    expect(decoded).toHaveLength(1);
    expect(decoded[0]).toBeLessThanOrEqual(READ_LIMITS.maxOutputBytes + 200);
  });
});
