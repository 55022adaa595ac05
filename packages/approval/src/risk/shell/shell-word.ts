import type { Node } from 'web-tree-sitter';

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
}

// Bash removes a backslash-newline pair entirely, in and out of double quotes.
const LINE_CONTINUATION = /\\\n/g;

function unquoted(text: string): string {
  return text.replace(LINE_CONTINUATION, '').replace(/\\(.)/gs, '$1');
}

function doubleQuoted(text: string): string {
  return text.replace(LINE_CONTINUATION, '').replace(/\\([$`"\\])/g, '$1');
}

// Unquoted text that bash expands: a glob character not escaped, or a brace list / sequence.
function expandsUnquoted(pattern: string): boolean {
  return /(^|[^\\])[*?[]/.test(pattern) || /\{[^}]*(,|\.\.)[^}]*\}/.test(pattern);
}

interface Piece {
  value: string | null;
  prefix: string;
  // The piece as a glob pattern: unquoted text kept, quoted text neutralised.
  pattern: string;
}

const DYNAMIC: Piece = { value: null, prefix: '', pattern: '' };

function literal(value: string, pattern = 'q'.repeat(value.length)): Piece {
  return { value, prefix: value, pattern };
}

function stringPiece(node: Node): Piece {
  let value = '';
  for (const child of node.children) {
    if (child.type === 'string_content') value += doubleQuoted(child.text);
    else if (!child.isNamed && child.type === '"') continue;
    else if (!child.isNamed && child.type === '$') value += '$';
    else return { value: null, prefix: value, pattern: '' };
  }
  return literal(value);
}

function pieceOf(node: Node): Piece {
  switch (node.type) {
    case 'word':
    case 'number':
    case 'extglob_pattern':
      if (node.namedChildCount > 0) return DYNAMIC;
      return literal(unquoted(node.text), node.text);
    case 'raw_string':
      return literal(node.text.slice(1, -1));
    case 'string':
      return stringPiece(node);
    case 'concatenation': {
      let value = '';
      let pattern = '';
      for (const child of node.children) {
        // `$"…"` is a locale translation: its value depends on message catalogues.
        if (!child.isNamed && child.type === '$') return { value: null, prefix: value, pattern };
        const piece = pieceOf(child);
        if (piece.value === null) return { value: null, prefix: value + piece.prefix, pattern };
        value += piece.value;
        pattern += piece.pattern;
      }
      return { value, prefix: value, pattern };
    }
    case 'brace_expression':
      return { value: null, prefix: '', pattern: '{,}' };
    default:
      // ansi_c_string, translated_string, expansions, substitutions, arrays: known only at run time.
      return DYNAMIC;
  }
}

/**
 * What a word node means statically: quotes removed (`\rm`, `"rm"`, `r''m` are all `rm`), and
 * `value: null` when any part is an expansion (`$'\x72\x6d'`, `rm${IFS}`, `$(…)`).
 *
 * @example
 * wordOf(commandNameNode).value; // 'rm' for `r''m`
 */
export function wordOf(node: Node): ShellWord {
  const piece = pieceOf(node);
  return {
    text: node.text,
    value: piece.value,
    prefix: piece.prefix,
    expands:
      piece.value === null ? node.type === 'brace_expression' : expandsUnquoted(piece.pattern),
  };
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
