import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedLevenshtein, levenshteinSimilarity } from './levenshtein.js';

/** Textbook full-matrix distance, the reference for the bounded version. */
function reference(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const row = rows[i] as number[];
      const up = rows[i - 1] as number[];
      row[j] = Math.min(
        (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
        (up[j] as number) + 1,
        (row[j - 1] as number) + 1,
      );
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

describe('boundedLevenshtein', () => {
  it('computes the edit distance of known pairs', () => {
    expect(boundedLevenshtein('kitten', 'sitting')).toBe(3);
    expect(boundedLevenshtein('', 'abc')).toBe(3);
    expect(boundedLevenshtein('abc', '')).toBe(3);
    expect(boundedLevenshtein('same', 'same')).toBe(0);
    expect(boundedLevenshtein('flaw', 'lawn')).toBe(2);
  });

  it('returns max + 1 once the distance is known to exceed max', () => {
    expect(boundedLevenshtein('kitten', 'sitting', 2)).toBe(3);
    expect(boundedLevenshtein('kitten', 'sitting', 3)).toBe(3);
    expect(boundedLevenshtein('a', 'abcdefgh', 2)).toBe(3);
    expect(boundedLevenshtein('abc', 'abd', 0)).toBe(1);
  });

  it('agrees with the full-matrix reference within the bound (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 24 }),
        fc.string({ maxLength: 24 }),
        fc.nat({ max: 30 }),
        (a, b, max) => {
          const exact = reference(a, b);
          const bounded = boundedLevenshtein(a, b, max);
          expect(bounded).toBe(exact <= max ? exact : max + 1);
          expect(boundedLevenshtein(a, b)).toBe(exact);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('handles 10,000-char lines with a narrow bound without a full matrix', () => {
    const a = 'x'.repeat(10_000);
    const b = `${'x'.repeat(9_990)}yyyyyyyyyy`;
    expect(boundedLevenshtein(a, b, 20)).toBe(10);
    expect(boundedLevenshtein(a, 'z'.repeat(10_000), 20)).toBe(21);
  });
});

describe('levenshteinSimilarity', () => {
  it('is 1 for identical strings (including two empty ones) and lower for different ones', () => {
    expect(levenshteinSimilarity('', '')).toBe(1);
    expect(levenshteinSimilarity('abc', 'abc')).toBe(1);
    expect(levenshteinSimilarity('return total;', 'return totals;')).toBeCloseTo(1 - 1 / 14);
  });

  it('stays below the threshold for dissimilar strings when bounded', () => {
    expect(levenshteinSimilarity('abcdefghij', 'zyxwvutsrq', 0.8)).toBeLessThan(0.8);
    expect(levenshteinSimilarity('abcdefghij', 'abcdefghiX', 0.8)).toBeCloseTo(0.9);
  });
});
