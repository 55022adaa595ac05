import { describe, expect, it } from 'vitest';
import { expandBraces } from './brace-expansion.js';

describe('expandBraces', () => {
  it('expands lists, nested lists and literal braces as bash does', () => {
    expect(expandBraces('{a,.git/config}')).toEqual(['a', '.git/config']);
    expect(expandBraces('cp{,.bak}')).toEqual(['cp', 'cp.bak']);
    expect(expandBraces('{a,b}{c,d}')).toEqual(['ac', 'ad', 'bc', 'bd']);
    expect(expandBraces('{{a,b}}')).toEqual(['{a}', '{b}']);
    expect(expandBraces('{a}')).toEqual(['{a}']);
    expect(expandBraces('x{1..3}')).toEqual(['x*']);
  });

  it('gives up past 64 words', () => {
    expect(expandBraces('{a,b}'.repeat(7))).toBeNull();
  });
});
