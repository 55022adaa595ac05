/**
 * One shell word as the analysis understands it without running anything.
 *
 * @example
 * const word: ShellWord = { text: "r''m", value: 'rm', prefix: 'rm', expands: false };
 */
export interface ShellWord {
  /** The word as written. */
  readonly text: string;
  /** Its value after quote removal, or `null` when it depends on an expansion. */
  readonly value: string | null;
  /** The literal text before the first expansion (the whole value when there is none). */
  readonly prefix: string;
  /** Unquoted glob or brace characters: the shell turns it into other words at run time. */
  readonly expands: boolean;
  /**
   * Set when the only parts computed at run time are substitutions of `git merge-base` with
   * literal arguments, which print commit ids (hex digits) or nothing, and the literal parts
   * cannot start an option: such a word names revisions and can never be an option.
   */
  readonly commitIds?: true;
}

/**
 * A word that was never shell syntax (a payload split by a wrapper such as `find -exec`).
 *
 * @example
 * literalWord('rm').value; // 'rm'
 */
export function literalWord(value: string): ShellWord {
  return { text: value, value, prefix: value, expands: false };
}
