/**
 * Edit distance between `a` and `b` (UTF-16 code units), computed in a diagonal band of width
 * `max` with two typed-array rows sized to the shorter string: O(min(|a|,|b|)) memory and
 * O(min · max) time. Returns `max + 1` as soon as the distance is known to exceed `max`, which
 * is what keeps fuzzy matching cheap on long lines (full-matrix Levenshtein took 31 s and 1.2 GB
 * on three 10k-char lines in peers).
 *
 * @example
 * boundedLevenshtein('kitten', 'sitting'); // 3
 * boundedLevenshtein('kitten', 'sitting', 2); // 3 (= max + 1: "more than 2")
 */
export function boundedLevenshtein(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  const short = a.length <= b.length ? a : b;
  const long = a.length <= b.length ? b : a;
  const n = short.length;
  const m = long.length;
  const over = Number.isFinite(max) ? Math.max(0, Math.floor(max)) + 1 : m + 1;
  // The distance never exceeds the longer length, so a larger bound buys nothing.
  const limit = Math.min(over - 1, m);
  if (m - n > limit) return over;
  if (n === 0) return m;

  const big = limit + 1;
  let prev = new Uint32Array(n + 1);
  let cur = new Uint32Array(n + 1);
  for (let j = 0; j <= n; j += 1) prev[j] = j <= limit ? j : big;

  for (let i = 1; i <= m; i += 1) {
    const lo = Math.max(1, i - limit);
    const hi = Math.min(n, i + limit);
    cur[lo - 1] = lo === 1 ? Math.min(i, big) : big;
    let rowMin = cur[lo - 1] as number;
    const code = long.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j += 1) {
      const substitution = (prev[j - 1] as number) + (short.charCodeAt(j - 1) === code ? 0 : 1);
      const deletion = (prev[j] as number) + 1;
      const insertion = (cur[j - 1] as number) + 1;
      const value = Math.min(substitution, deletion, insertion, big);
      cur[j] = value;
      if (value < rowMin) rowMin = value;
    }
    // Cells right of the band must read as "too far" for the next row.
    if (hi < n) cur[hi + 1] = big;
    if (rowMin > limit) return over;
    const swap = prev;
    prev = cur;
    cur = swap;
  }
  const distance = prev[n] as number;
  return distance > limit ? over : distance;
}

/**
 * Similarity in [0, 1]: `1 - distance / max(|a|, |b|)`; two empty strings are identical (1).
 * With `minSimilarity`, the distance is bounded so dissimilar pairs are rejected early; the
 * result is then only exact when it is at least `minSimilarity` (otherwise it is some value
 * below it).
 *
 * @example
 * levenshteinSimilarity('return total;', 'return totals;'); // ≈ 0.93
 * levenshteinSimilarity('abc', 'xyz', 0.8) < 0.8; // true, computed with an early exit
 */
export function levenshteinSimilarity(a: string, b: string, minSimilarity = 0): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  const max = Math.floor((1 - minSimilarity) * longest + 1e-9);
  const distance = boundedLevenshtein(a, b, max);
  return Math.max(0, 1 - distance / longest);
}
