import type { Node } from 'web-tree-sitter';
import { addCommand } from './record-command.js';
import type { WalkContext, WalkState } from './walk-state.js';

// A loop variable bash or a program it runs does not read for itself: those are upper case
// (PATH, IFS, HOME, BASH_ENV, LD_PRELOAD, GIT_DIR …).
const PLAIN_VARIABLE = /^[a-z][a-z0-9_]*$/;
// Literal loop words the body is judged once per value for; a longer list is judged as computed.
const MAX_VALUES = 16;
const GLOB = /[*?[]/;
// A value that stays one word, unquoted, after word splitting.
const ONE_WORD = /^[^\s'"\\$`]+$/;
// Characters special inside double quotes.
const IN_DOUBLE_QUOTES = /["\\$`]/g;

/**
 * A `for` loop sets its variable before each run of its body. A loop over a variable bash reads
 * for itself (`for PATH in .; do ls; done` runs `./ls`) is recorded as the assignment it is.
 *
 * @example
 * recordLoopVariable(forNode, context, state); // records `for PATH` as an assignment
 */
export function recordLoopVariable(node: Node, context: WalkContext, state: WalkState): void {
  const variable = node.childForFieldName('variable');
  const name = variable?.text ?? '';
  if (PLAIN_VARIABLE.test(name)) return;
  addCommand(
    {
      kind: 'assignment',
      text: `for ${name}`,
      name: null,
      args: [],
      assignments: [{ name, value: null, text: `for ${name}` }],
      redirects: [],
    },
    context,
    state,
  );
}

interface Value {
  /** The value after quote removal, or the glob as written. */
  readonly text: string;
  readonly glob: boolean;
}

function literalValue(node: Node): Value | null {
  if (node.type === 'word' && node.namedChildCount === 0) {
    const text = node.text;
    if (text.includes('\\')) return null;
    return { text, glob: GLOB.test(text) };
  }
  if (node.type === 'raw_string') return { text: node.text.slice(1, -1), glob: false };
  if (
    node.type === 'string' &&
    node.namedChildren.every((child) => child.type === 'string_content')
  ) {
    const text = node.text.slice(1, -1);
    if (/[\\$`]/.test(text)) return null;
    return { text, glob: false };
  }
  return null;
}

const singleQuoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** The body's text with each use of the variable replaced by what it holds in one iteration. */
function bodyFor(
  body: Node,
  uses: readonly { node: Node; quotedWhole: Node | null; inString: boolean }[],
  value: Value,
): string | null {
  const source = body.text;
  const start = body.startIndex;
  const edits: { from: number; to: number; text: string }[] = [];
  for (const use of uses) {
    const target = use.quotedWhole ?? use.node;
    const from = target.startIndex - start;
    const to = target.endIndex - start;
    // Offsets are trusted only where they give back the node's own text.
    if (source.slice(from, to) !== target.text) return null;
    let text: string;
    if (use.quotedWhole !== null) {
      // `"$f"`: one word holding the value (for a glob, one of the names it matches).
      text = value.glob ? value.text : singleQuoted(value.text);
    } else if (use.inString) {
      if (value.glob) return null;
      text = value.text.replace(IN_DOUBLE_QUOTES, '\\$&');
    } else {
      if (!value.glob && !ONE_WORD.test(value.text)) return null;
      text = value.glob ? value.text : singleQuoted(value.text);
    }
    edits.push({ from, to, text });
  }
  edits.sort((a, b) => b.from - a.from);
  let result = source;
  for (const edit of edits) result = result.slice(0, edit.from) + edit.text + result.slice(edit.to);
  // The do-group's own keywords.
  if (!result.startsWith('do') || !result.endsWith('done')) return null;
  return result.slice(2, -4);
}

function usesOf(
  body: Node,
  name: string,
): { node: Node; quotedWhole: Node | null; inString: boolean }[] | null {
  const uses: { node: Node; quotedWhole: Node | null; inString: boolean }[] = [];
  for (const node of body.descendantsOfType(['simple_expansion', 'expansion', 'variable_name'])) {
    if (node === null) continue;
    if (node.type === 'variable_name') {
      if (node.text !== name) continue;
      const parent = node.parent;
      if (parent?.type === 'simple_expansion' || parent?.type === 'expansion') continue;
      // Assigned, read into, or named in arithmetic inside the body: not followed.
      return null;
    }
    const inner = node.namedChildren;
    const named = inner[0];
    if (named?.type !== 'variable_name' || named.text !== name) continue;
    // `${f%.txt}`, `${#f}` and the like change the value: not followed.
    if (node.type === 'expansion' && node.text !== `\${${name}}`) return null;
    let inString = false;
    let inHeredoc = false;
    for (let up = node.parent; up !== null && up.id !== body.id; up = up.parent) {
      if (up.type === 'string') inString = true;
      if (up.type === 'heredoc_body' || up.type === 'for_statement') inHeredoc = true;
    }
    if (inHeredoc) return null;
    const parent = node.parent;
    const quotedWhole =
      parent?.type === 'string' && parent.namedChildren.length === 1 ? parent : null;
    uses.push({ node, quotedWhole, inString });
  }
  return uses;
}

/**
 * Judge a `for` loop over literal words by judging its body once per word, with the variable
 * replaced by that word (a glob stands for the names it matches): `for f in a.txt b.txt; do
 * wc -l "$f"; done` is judged as `wc -l 'a.txt'` and `wc -l 'b.txt'`. Returns false (and
 * records nothing) when the loop cannot be followed that way — a computed word in its list, more
 * than 16 words, a body that changes or transforms the variable — and then the body is walked
 * as it is, with the variable as a value computed at run time.
 *
 * @example
 * if (unrollForLoop(node, context, state)) return null; // the body was judged per value
 */
export function unrollForLoop(node: Node, context: WalkContext, state: WalkState): boolean {
  const name = node.childForFieldName('variable')?.text ?? '';
  const body = node.childForFieldName('body');
  const valueNodes = node.childrenForFieldName('value');
  if (!PLAIN_VARIABLE.test(name) || body?.type !== 'do_group') return false;
  if (valueNodes.length === 0 || valueNodes.length > MAX_VALUES) return false;
  const values: Value[] = [];
  for (const valueNode of valueNodes) {
    const value = valueNode === null ? null : literalValue(valueNode);
    if (value === null) return false;
    values.push(value);
  }
  const uses = usesOf(body, name);
  if (uses === null) return false;
  const bodies: string[] = [];
  for (const value of values) {
    const text = bodyFor(body, uses, value);
    if (text === null) return false;
    if (!bodies.includes(text)) bodies.push(text);
  }
  const inner = { ...context, origin: [...context.origin, `for ${name}`] };
  for (const text of bodies) state.analysePayload(text, inner);
  return true;
}
