import type { Node } from 'web-tree-sitter';
import { expandBraces } from './brace-expansion.js';
import type { ShellWord } from './shell-word.js';

// What the grammar's word nodes mean: kept apart from the ShellWord shape, which is public, so the
// published declarations never reach the parser's types.

// Bash removes a backslash-newline pair entirely, in and out of double quotes.
const LINE_CONTINUATION = /\\\n/g;

function unquoted(text: string): string {
  return text.replace(LINE_CONTINUATION, '').replace(/\\(.)/gs, '$1');
}

function doubleQuoted(text: string): string {
  return text.replace(LINE_CONTINUATION, '').replace(/\\([$`"\\])/g, '$1');
}

// Escaped characters are literal: neutralise them before looking for globs and brace lists.
function unescaped(pattern: string): string {
  return pattern.replace(/\\./gs, 'q');
}

const GLOB = /[*?[]/;
const BRACE_LIST = /\{[^}]*(,|\.\.)[^}]*\}/;

interface Piece {
  value: string | null;
  prefix: string;
  // The piece as bash sees it before quote removal: unquoted text kept, quoted text and
  // expansions replaced by placeholders, so globs and brace lists are found where they act.
  pattern: string;
}

function literal(value: string, pattern = 'q'.repeat(value.length)): Piece {
  return { value, prefix: value, pattern };
}

function dynamic(prefix = ''): Piece {
  return { value: null, prefix, pattern: 'x' };
}

function stringPiece(node: Node): Piece {
  let value = '';
  for (const child of node.children) {
    if (child.type === 'string_content') value += doubleQuoted(child.text);
    else if (!child.isNamed && child.type === '"') continue;
    else if (!child.isNamed && child.type === '$') value += '$';
    else return dynamic(value);
  }
  return literal(value);
}

function concatenationPiece(node: Node): Piece {
  let value: string | null = '';
  let prefix = '';
  let pattern = '';
  for (const child of node.children) {
    // `$"…"` is a locale translation: its value depends on message catalogues.
    const piece = !child.isNamed && child.type === '$' ? dynamic() : pieceOf(child);
    pattern += piece.pattern;
    if (value === null) continue;
    if (piece.value === null) {
      prefix = value + piece.prefix;
      value = null;
    } else {
      value += piece.value;
    }
  }
  return { value, prefix: value ?? prefix, pattern };
}

function pieceOf(node: Node): Piece {
  switch (node.type) {
    case 'word':
    case 'number':
    case 'extglob_pattern':
      if (node.namedChildCount > 0) return dynamic();
      return literal(unquoted(node.text), node.text);
    case 'brace_expression':
      return literal(node.text, node.text);
    case 'raw_string':
      return literal(node.text.slice(1, -1));
    case 'string':
      return stringPiece(node);
    case 'concatenation':
      return concatenationPiece(node);
    default:
      // ansi_c_string, translated_string, expansions, substitutions, arrays: known only at run time.
      return dynamic();
  }
}

function wordFromPiece(text: string, piece: Piece): ShellWord {
  const pattern = unescaped(piece.pattern);
  return {
    text,
    value: piece.value,
    prefix: piece.prefix,
    expands: GLOB.test(pattern) || BRACE_LIST.test(pattern),
  };
}

/**
 * What a word node means statically: quotes removed (`\rm`, `"rm"`, `r''m` are all `rm`), and
 * `value: null` when any part is an expansion (`$'\x72\x6d'`, `rm${IFS}`, `$(…)`). Brace lists
 * are left unexpanded here; {@link wordsOf} expands them.
 *
 * @example
 * wordOf(commandNameNode).value; // 'rm' for `r''m`
 */
export function wordOf(node: Node): ShellWord {
  return wordFromPiece(node.text, pieceOf(node));
}

/**
 * The words one word node becomes after brace expansion, as bash does before anything else:
 * `{rm,-rf,x}` is three words, `rm`, `-rf` and `x`. `unresolved` is true when a brace list
 * surrounds a value known only at run time (`{-v,$x}`) or has more than 64 alternatives; the
 * word is then returned as it is.
 *
 * @example
 * wordsOf(node).words.map((word) => word.value); // ['-delete', '-name'] for `{-delete,-name}`
 */
export function wordsOf(node: Node): { words: ShellWord[]; unresolved: boolean } {
  const piece = pieceOf(node);
  const word = wordFromPiece(node.text, piece);
  if (!BRACE_LIST.test(unescaped(piece.pattern))) return { words: [word], unresolved: false };
  const expanded = word.value === null ? null : expandBraces(word.value);
  if (expanded === null) return { words: [{ ...word, value: null, prefix: '' }], unresolved: true };
  const words = expanded.map((value) => ({
    text: value,
    value,
    prefix: value,
    expands: GLOB.test(value),
  }));
  return { words, unresolved: false };
}
