import { describe, expect, it } from 'vitest';
import { escapedSnippet } from './escaped-snippet.js';

describe('escapedSnippet', () => {
  it.each([
    ['a title escape', '\x1b]0;pwned\x07', '\\x1b]0;pwned\\x07'],
    ['a clipboard write', '\x1b]52;c;aGk=\x1b\\', '\\x1b]52;c;aGk=\\x1b\\'],
    ['a screen clear', '\x1b[2J\x1b[H', '\\x1b[2J\\x1b[H'],
    ['an 8-bit CSI', '\u009b31m', '\\x9b31m'],
    ['newlines, tabs and carriage returns', 'a\nb\tc\rd', 'a\\nb\\tc\\rd'],
    ['a bidi override', 'evil\u202etxt.exe', 'evil\\u202etxt.exe'],
    ['a NUL and DEL', 'a\u0000b\u007f', 'a\\x00b\\x7f'],
    ['a line separator', 'a\u2028b', 'a\\u2028b'],
    ['plain text', 'not valid JSON at position 3', 'not valid JSON at position 3'],
    ['non-ASCII text', 'ключ: 值 ✓', 'ключ: 值 ✓'],
  ])('shows %s as visible escapes', (_what, text, shown) => {
    expect(escapedSnippet(text)).toBe(shown);
  });

  it('cuts to the given length with …, never inside an escape', () => {
    expect(escapedSnippet('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(escapedSnippet('abcdefgh\x1b[31m', 10)).toBe('abcdefgh…');
    expect(escapedSnippet('abcdefghij', 10)).toBe('abcdefghij');
    expect(escapedSnippet('\x1b'.repeat(1_000_000), 20)).toBe(`${'\\x1b'.repeat(4)}…`);
  });
});
