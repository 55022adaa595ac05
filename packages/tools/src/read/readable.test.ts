import { describe, expect, it } from 'vitest';
import { READ_LIMITS } from './limits.js';
import { classifyBytes, readRefusal } from './readable.js';

describe('what read refuses whatever it is called with', () => {
  it('refuses a NUL byte, mostly control bytes and a UTF-32 BOM as binary', () => {
    expect(readRefusal(Buffer.from('a\0b'), 3)).toBe('binary');
    expect(readRefusal(Buffer.from('\u0001\u0002\u0003x'), 4)).toBe('binary');
    expect(classifyBytes(Buffer.from([0xff, 0xfe, 0, 0, 0x61, 0, 0, 0]))).toEqual({
      kind: 'binary',
      encoding: 'UTF-32LE',
    });
  });

  it('refuses a file over the size limit before looking at its bytes', () => {
    expect(readRefusal(Buffer.from('text\n'), READ_LIMITS.maxFileBytes + 1)).toBe('too_large');
  });

  it('shows UTF-16 with a BOM, UTF-8 with a BOM and invalid UTF-8 (refuses none of them)', () => {
    expect(classifyBytes(Buffer.from([0xfe, 0xff, 0, 0x61]))).toEqual({
      kind: 'utf16',
      encoding: 'UTF-16BE',
    });
    expect(readRefusal(Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x0a]), 5)).toBeUndefined();
    expect(readRefusal(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), 5)).toBeUndefined();
  });
});
