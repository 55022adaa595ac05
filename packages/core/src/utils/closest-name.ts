/**
 * How far apart two names are: single-character insertions, deletions and substitutions, with a
 * swap of two neighbours counted as one edit (`lokoup` → `lookup` is 1). Hand-written because the
 * inputs are option, setting and tool names of a few dozen characters against a few dozen
 * candidates: a dependency would cost more at start-up than this loop.
 *
 * @example
 * editDistance('lokoup', 'lookup'); // 1
 * editDistance('modle', 'model'); // 1
 */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    const row = rows[i] as number[];
    const above = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = value;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * Options of {@link closestName}.
 *
 * @example
 * const options: ClosestNameOptions = { loose: true, maxDistance: 2 };
 */
export interface ClosestNameOptions {
  /**
   * Compare without case, `_` and `-` (`base_url` and `BaseURL` are `baseURL`), and prefer such an
   * exact loose match. Default: without case only.
   */
  loose?: boolean;
  /** The farthest a suggestion may be; farther candidates give undefined. Default: no limit. */
  maxDistance?: number;
}

/**
 * The candidate a mistyped `name` most likely meant: the fewest edits away ({@link editDistance}),
 * compared without case (and, `loose`, without `_` and `-`), the first in `candidates` order on a
 * tie. Undefined when there are no candidates or none is within `maxDistance`.
 *
 * @example
 * closestName('lokup', ['add', 'lookup']); // 'lookup'
 * closestName('base_url', ['apiKey', 'baseURL'], { loose: true }); // 'baseURL'
 * closestName('colour', ['apiKey', 'baseURL'], { maxDistance: 2 }); // undefined
 */
export function closestName(
  name: string,
  candidates: readonly string[],
  options: ClosestNameOptions = {},
): string | undefined {
  const normal = options.loose
    ? (value: string) => value.toLowerCase().replace(/[-_]/g, '')
    : (value: string) => value.toLowerCase();
  const wanted = normal(name);
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, normal(candidate));
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  if (best === undefined) return undefined;
  return options.maxDistance === undefined || best.distance <= options.maxDistance
    ? best.candidate
    : undefined;
}
