/**
 * Levenshtein distance with one row of memory. Hand-written because the inputs are variable names
 * and tool names of a few dozen characters compared against a few dozen candidates: a dependency
 * would cost more at start-up than this loop.
 *
 * @example
 * editDistance('bahs', 'bash'); // → 2
 */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        substitution,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}
