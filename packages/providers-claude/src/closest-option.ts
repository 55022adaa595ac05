/**
 * The known option a misspelt one most likely meant: first a match that differs only in case,
 * `_` or `-` (`base_url`, `BaseURL`, `apikey`), then the nearest by edit distance when it is close
 * enough to be a typo (`modle`); `undefined` when nothing is.
 *
 * @example
 * closestOption('base_url', ['apiKey', 'baseURL', 'model']); // 'baseURL'
 * closestOption('colour', ['apiKey', 'baseURL', 'model']); // undefined
 */
export function closestOption(name: string, known: readonly string[]): string | undefined {
  const squash = (value: string) => value.toLowerCase().replace(/[-_]/g, '');
  const loose = known.find((option) => squash(option) === squash(name));
  if (loose !== undefined) return loose;
  let best: { option: string; distance: number } | undefined;
  for (const option of known) {
    const distance = editDistance(squash(name), squash(option));
    if (best === undefined || distance < best.distance) best = { option, distance };
  }
  const limit = Math.max(1, Math.floor(name.length / 3));
  return best !== undefined && best.distance <= limit ? best.option : undefined;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
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
