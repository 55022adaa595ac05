import { describe, expect, it } from 'vitest';
import { printable, printableJson } from './terminal-text.js';

describe('printable', () => {
  it('shows escape sequences, bells, carriage returns and C1 controls as text', () => {
    expect(printable('\x1b[2Jrm -rf /\x07\r\x9b31m')).toBe('\\x1b[2Jrm -rf /\\x07\\r\\x9b31m');
  });

  it('shows bidi overrides and zero-width characters, which can hide what text says', () => {
    expect(printable('a\u202eb\u200bc\u2066')).toBe('a\\u202eb\\u200bc\\u2066');
  });

  it('keeps newlines and tabs only when asked to', () => {
    expect(printable('a\n\tb')).toBe('a\\n\\tb');
    expect(printable('a\n\tb\x1b', { multiline: true })).toBe('a\n\tb\\x1b');
  });

  it('leaves ordinary text, accents and emoji alone', () => {
    expect(printable('héllo · 世界 🙂')).toBe('héllo · 世界 🙂');
  });
});

describe('printableJson', () => {
  it('escapes what JSON.stringify leaves raw, and decodes to the same value', () => {
    const value = { text: 'a\u202eb\x9bc\x1bd', tag: '\u{E0041}', list: ['\u2028'] };
    const json = printableJson(value);
    for (const raw of ['\u202e', '\x9b', '\u2028', '\u{E0041}']) expect(json).not.toContain(raw);
    expect(json).toContain('\\u202e');
    expect(JSON.parse(json)).toEqual(value);
  });
});
