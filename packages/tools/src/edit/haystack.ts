import { checkDeadline, type Deadline, NO_DEADLINE } from './deadline.js';

/**
 * The file content prepared once for every strategy: an LF-normalised copy with a map back to
 * the original offsets, its lines, and per-strategy line keys. Everything is computed lazily so
 * an exact hit pays for none of it.
 *
 * @example
 * const hay = new Haystack('a\r\nb\r\n');
 * hay.text; // 'a\nb\n'
 * hay.toOriginal(2); // 3 (the 'b')
 */
export class Haystack {
  readonly original: string;
  #text: string | undefined;
  /** Normalised offsets of each LF that was a CRLF (its CR was dropped); sorted. */
  #drops: Int32Array | undefined;
  #lines: string[] | undefined;
  #lineStarts: Int32Array | undefined;
  #newlines: Int32Array | undefined;
  readonly #keys = new Map<string, string[]>();
  readonly #derived = new Map<string, Haystack>();

  constructor(original: string) {
    this.original = original;
  }

  /** The content with CRLF and lone CR turned into LF. */
  get text(): string {
    if (this.#text === undefined) this.#normalize();
    return this.#text as string;
  }

  /** Lines of {@link text} (split on LF; a trailing LF yields a final empty line). */
  get lines(): string[] {
    if (this.#lines === undefined) this.#lines = this.text.split('\n');
    return this.#lines;
  }

  /** Offset in {@link text} where each line of {@link lines} starts. */
  get lineStarts(): Int32Array {
    if (this.#lineStarts === undefined) {
      const lines = this.lines;
      const starts = new Int32Array(lines.length);
      let offset = 0;
      for (let i = 0; i < lines.length; i += 1) {
        starts[i] = offset;
        offset += (lines[i] as string).length + 1;
      }
      this.#lineStarts = starts;
    }
    return this.#lineStarts;
  }

  /** Map an offset in {@link text} back to the same position in {@link original}. */
  toOriginal(offset: number): number {
    if (this.#text === undefined) this.#normalize();
    const drops = this.#drops as Int32Array;
    if (drops.length === 0) return offset;
    return offset + lowerBound(drops, offset);
  }

  /** 1-based line of an offset in {@link original}, counting `\n` like the `read` tool. */
  lineOf(originalOffset: number): number {
    if (this.#newlines === undefined) {
      const positions: number[] = [];
      const text = this.original;
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) positions.push(i);
      this.#newlines = Int32Array.from(positions);
    }
    return lowerBound(this.#newlines, originalOffset) + 1;
  }

  /**
   * Line keys for a strategy (for example each line trimmed), computed once and cached under
   * `name`. Building them polls `deadline`, since on a 20 MB file this alone takes a while.
   */
  keys(name: string, make: (line: string) => string, deadline: Deadline = NO_DEADLINE): string[] {
    let keys = this.#keys.get(name);
    if (keys === undefined) {
      const lines = this.lines;
      keys = new Array<string>(lines.length);
      for (let i = 0; i < lines.length; i += 1) {
        checkDeadline(deadline, i);
        keys[i] = make(lines[i] as string);
      }
      this.#keys.set(name, keys);
    }
    return keys;
  }

  /**
   * A haystack over `transform(text)`, computed once and cached under `name`. The transform must
   * keep every offset (same length, same line breaks), so spans found in it are spans of
   * {@link text}.
   */
  derived(name: string, transform: (text: string) => string): Haystack {
    let derived = this.#derived.get(name);
    if (derived === undefined) {
      derived = new Haystack(transform(this.text));
      this.#derived.set(name, derived);
    }
    return derived;
  }

  /**
   * Original span of the normalised line window `[first, first + count)`. The window ends at
   * the end of its last line, or just after that line's break when `withNewline`.
   */
  windowSpan(first: number, count: number, withNewline: boolean): { start: number; end: number } {
    const starts = this.lineStarts;
    const last = first + count - 1;
    const start = starts[first] as number;
    let end: number;
    if (withNewline && last + 1 < starts.length) end = starts[last + 1] as number;
    else end = (starts[last] as number) + (this.lines[last] as string).length;
    return { start: this.toOriginal(start), end: this.toOriginal(end) };
  }

  #normalize(): void {
    const original = this.original;
    let first = original.indexOf('\r');
    if (first === -1) {
      this.#text = original;
      this.#drops = new Int32Array(0);
      return;
    }
    const parts: string[] = [];
    const drops: number[] = [];
    let last = 0;
    for (; first !== -1; first = original.indexOf('\r', first + 1)) {
      parts.push(original.slice(last, first));
      if (original.charCodeAt(first + 1) === 10) {
        // Drop the CR, keep the LF: that LF lands at `first - drops so far`.
        drops.push(first - drops.length);
      } else {
        parts.push('\n');
      }
      last = first + 1;
    }
    parts.push(original.slice(last));
    this.#text = parts.join('');
    this.#drops = Int32Array.from(drops);
  }
}

/** Number of entries of the sorted `values` strictly below `target`. */
function lowerBound(values: Int32Array, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
