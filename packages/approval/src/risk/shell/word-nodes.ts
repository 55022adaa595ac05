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
  /** The piece's computed parts are all commit-id substitutions (see `ShellWord.commitIds`). */
  ids?: boolean;
}

// `git merge-base` prints commit ids or nothing, whatever its revisions name; these options only
// choose which ids. Its other forms (`--is-ancestor`) print nothing.
const MERGE_BASE_OPTIONS = new Set(['-a', '--all', '--octopus', '--independent', '--fork-point']);
// What the literal text around commit ids may hold: revision syntax (`..`, `~2`, `^`, `@{u}`).
const REVISION_TEXT = /^[A-Za-z0-9_./~^@{}:-]*$/;

/**
 * Whether a node is `$(git merge-base …)` with only literal words: its output is commit ids.
 * Backtick substitutions and anything with expansions, redirections or more than one command
 * are not.
 */
function isMergeBaseSubstitution(node: Node): boolean {
  if (node.type !== 'command_substitution' || !node.text.startsWith('$(')) return false;
  const inner = node.namedChildren;
  const command = inner[0];
  if (inner.length !== 1 || command?.type !== 'command') return false;
  const words = command.namedChildren;
  if (words[0]?.type !== 'command_name') return false;
  const literals = words.map((word) =>
    word.type === 'command_name' ? word.firstNamedChild : word,
  );
  if (literals.some((word) => word?.type !== 'word' || word.namedChildCount > 0)) return false;
  const [program, subcommand, ...rest] = literals.map((word) => word?.text ?? '');
  return (
    program === 'git' &&
    subcommand === 'merge-base' &&
    rest.length >= 1 &&
    rest.every((word) => !word.startsWith('-') || MERGE_BASE_OPTIONS.has(word))
  );
}

function literal(value: string, pattern = 'q'.repeat(value.length)): Piece {
  return { value, prefix: value, pattern };
}

function dynamic(prefix = ''): Piece {
  return { value: null, prefix, pattern: 'x' };
}

function stringPiece(node: Node): Piece {
  let value = '';
  const named = node.namedChildren;
  // `"$(git merge-base a b)"`: one commit id (or none), quoted.
  if (named.length === 1 && named[0] && isMergeBaseSubstitution(named[0]))
    return { ...dynamic(), ids: true };
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
  let ids = true;
  for (const [index, child] of node.children.entries()) {
    // `$"…"` is a locale translation: its value depends on message catalogues.
    const piece = !child.isNamed && child.type === '$' ? dynamic() : pieceOf(child);
    pattern += piece.pattern;
    if (piece.value === null) ids &&= piece.ids === true;
    else ids &&= REVISION_TEXT.test(piece.value) && (index > 0 || !piece.value.startsWith('-'));
    if (value === null) continue;
    if (piece.value === null) {
      prefix = value + piece.prefix;
      value = null;
    } else {
      value += piece.value;
    }
  }
  return { value, prefix: value ?? prefix, pattern, ...(value === null && ids ? { ids } : {}) };
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
    case 'command_substitution':
      return isMergeBaseSubstitution(node) ? { ...dynamic(), ids: true } : dynamic();
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
    ...(piece.value === null && piece.ids === true ? { commitIds: true as const } : {}),
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
