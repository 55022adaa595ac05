import { describe, expect, it } from 'vitest';
import { hasReadLinePrefix, stripNewTextPrefixes, stripReadLinePrefixes } from './line-prefix.js';

describe('read line-number prefixes', () => {
  it('strips consecutive "N: " prefixes, keeping the text after them verbatim', () => {
    expect(stripReadLinePrefixes('12: const a = 1;\n13:   return a;\n14: \n')).toBe(
      'const a = 1;\n  return a;\n\n',
    );
    expect(stripReadLinePrefixes('7:')).toBe('');
  });

  it('refuses text where a line lacks the prefix or the numbers jump', () => {
    expect(stripReadLinePrefixes('1: a\nb')).toBeUndefined();
    expect(stripReadLinePrefixes('1: a\n3: b')).toBeUndefined();
    expect(stripReadLinePrefixes('1:a')).toBeUndefined();
  });

  it('strips new_text prefixes only when most lines carry one', () => {
    expect(stripNewTextPrefixes('12: a\n    added\n13: b')).toBe('a\n    added\nb');
    expect(stripNewTextPrefixes('a\nb\n1: c')).toBe('a\nb\n1: c');
  });

  it('detects a prefix on any line', () => {
    expect(hasReadLinePrefix('x\n  7: foo')).toBe(true);
    expect(hasReadLinePrefix('x: 7')).toBe(false);
  });
});
