// More brace alternatives than this and the word is treated as unknown.
const MAX_ALTERNATIVES = 64;
const SEQUENCE = /^[^.]+\.\.[^.]+(\.\.-?\d+)?$/;

/**
 * The words a brace expression stands for: `{a,.git}/x` is `a/x` and `.git/x`; a sequence such as
 * `{1..9}` becomes a `*` wildcard. `null` when there would be more than 64 words.
 *
 * @example
 * expandBraces('cp{,.bak}'); // ['cp', 'cp.bak']
 */
export function expandBraces(value: string): string[] | null {
  let open = -1;
  let depth = 0;
  let cuts: number[] = [];
  for (let index = 0; index < value.length; index += 1) {
    const char = value[index];
    if (char === '\\') {
      index += 1;
    } else if (char === '{') {
      if (depth === 0) {
        open = index;
        cuts = [index];
      }
      depth += 1;
    } else if (char === ',' && depth === 1) {
      cuts.push(index);
    } else if (char === '}' && depth > 0) {
      depth -= 1;
      if (depth > 0) continue;
      const body = value.slice(open + 1, index);
      let alternatives: string[];
      if (cuts.length > 1) {
        const ends = [...cuts.slice(1), index];
        alternatives = ends.map((end, at) => value.slice((cuts[at] as number) + 1, end));
      } else if (SEQUENCE.test(body)) {
        alternatives = ['*'];
      } else {
        // Not a list: these braces stay literal, but a list inside them still expands.
        const rest = expandBraces(value.slice(open + 1));
        return rest === null ? null : rest.map((word) => `${value.slice(0, open + 1)}${word}`);
      }
      const words: string[] = [];
      for (const alternative of alternatives) {
        const expanded = expandBraces(
          `${value.slice(0, open)}${alternative}${value.slice(index + 1)}`,
        );
        if (expanded === null || words.length + expanded.length > MAX_ALTERNATIVES) return null;
        words.push(...expanded);
      }
      return words;
    }
  }
  return [value];
}
