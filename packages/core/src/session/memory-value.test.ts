import { describe, expect, it } from 'vitest';
import { MEMORY_VALUE_MAX_CHARS, memoryValue } from './memory-value.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const spread = (length: number, step: number): string =>
  Array.from({ length }, (_, i) => ALNUM[(i * step + 3) % ALNUM.length]).join('');

describe('memoryValue', () => {
  it('keeps a short value without secrets as it is', () => {
    expect(memoryValue('fix the failing test')).toBe('fix the failing test');
  });

  it('redacts before it cuts, so a key straddling the cut leaves no fragment', () => {
    const key = `sk-${'proj'}-${spread(48, 11)}`;
    const value = `${'a'.repeat(MEMORY_VALUE_MAX_CHARS - 11)} ${key} ${'b'.repeat(100)}`;
    const out = memoryValue(value);
    expect(out).not.toContain(key.slice(0, 10));
    expect(out.startsWith('a'.repeat(MEMORY_VALUE_MAX_CHARS - 11))).toBe(true);
    // The marker would be cut in half: the cut moves before it instead.
    expect(out).toMatch(/a {2}… \[cut: [\d,]+ more chars\]$/);
  });

  it('never keeps half a surrogate pair', () => {
    const out = memoryValue(`${'a'.repeat(MEMORY_VALUE_MAX_CHARS - 1)}😀tail`);
    expect(out).toBe(`${'a'.repeat(MEMORY_VALUE_MAX_CHARS - 1)} … [cut: 6 more chars]`);
  });

  it('counts what was cut from a value far over the cap', () => {
    expect(memoryValue('z'.repeat(1_000_000))).toBe(
      `${'z'.repeat(MEMORY_VALUE_MAX_CHARS)} … [cut: 992,000 more chars]`,
    );
  });
});
