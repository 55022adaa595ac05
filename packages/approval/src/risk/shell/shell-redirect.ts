import type { ShellWord } from './shell-word.js';

/**
 * One redirection (`> out`, `2>&1`, `< in`, `<<EOF`, `<<< text`).
 *
 * @example
 * const redirect: ShellRedirect = { text: '> a.txt', operator: '>', target, writes: true, reads: false, input: null };
 */
export interface ShellRedirect {
  readonly text: string;
  readonly operator: string;
  /** The file it opens; `null` for heredocs, here-strings and descriptor copies such as `2>&1`. */
  readonly target: ShellWord | null;
  /** Opens its target for writing (`>`, `>>`, `>|`, `&>`, `&>>`, `>&file`). */
  readonly writes: boolean;
  /** Opens its target for reading (`<`). */
  readonly reads: boolean;
  /** What a heredoc or here-string feeds to standard input, or `null` when it expands at run time. */
  readonly input: string | null;
}

/** The three redirect node types of the grammar. */
export const REDIRECT_NODE_TYPES: ReadonlySet<string> = new Set([
  'file_redirect',
  'heredoc_redirect',
  'herestring_redirect',
]);
