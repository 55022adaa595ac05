import type { Node } from 'web-tree-sitter';
import { commandBaseName, unwrapCommand } from './command-wrappers.js';
import { redirectOf } from './redirect-nodes.js';
import { findExecCommands, payloadsOf } from './shell-payloads.js';
import { REDIRECT_NODE_TYPES, type ShellRedirect } from './shell-redirect.js';
import { literalWord, type ShellWord } from './shell-word.js';
import type { ShellAssignment, SimpleCommandKind } from './simple-command.js';
import { snippet } from './snippet.js';
import {
  EXPANSION_ORIGIN,
  FIND_EXEC_ORIGIN,
  report,
  type WalkContext,
  type WalkState,
} from './walk-state.js';
import { wordOf, wordsOf } from './word-nodes.js';

/**
 * A `NAME=value` node as an assignment (its value `null` when computed at run time).
 *
 * @example
 * assignmentOf(node); // { name: 'PAGER', value: 'less', text: 'PAGER=less' }
 */
export function assignmentOf(node: Node): ShellAssignment {
  const name = node.childForFieldName('name');
  const value = node.childForFieldName('value');
  return {
    name: name?.text ?? '',
    value: value === null ? '' : wordOf(value).value,
    text: node.text,
  };
}

/**
 * A redirect node and the file redirects nested inside a heredoc redirect (`cat <<EOF > out`).
 *
 * @example
 * redirectsUnder(heredocNode).map((redirect) => redirect.operator); // ['<<', '>']
 */
export function redirectsUnder(node: Node): ShellRedirect[] {
  const nested = node.type === 'heredoc_redirect' ? node.childrenForFieldName('redirect') : [];
  return [
    redirectOf(node),
    ...nested.filter((child) => REDIRECT_NODE_TYPES.has(child.type)).map(redirectOf),
  ];
}

interface CommandParts {
  readonly kind: SimpleCommandKind;
  readonly text: string;
  readonly name: ShellWord | null;
  readonly args: readonly ShellWord[];
  readonly assignments: readonly ShellAssignment[];
  readonly redirects: readonly ShellRedirect[];
}

/**
 * Unwrap a command, record it, and follow what it runs in turn (payloads, `find -exec`).
 *
 * @example
 * addCommand({ kind: 'command', text: 'rm x', name, args, assignments: [], redirects: [] }, context, state);
 */
export function addCommand(parts: CommandParts, context: WalkContext, state: WalkState): void {
  const unwrapped = parts.name === null ? null : unwrapCommand(parts.name, parts.args);
  const program = unwrapped?.name.value ?? null;
  const args = unwrapped?.args ?? parts.args;
  // The no-op that carries re-read expansion text is not the user's command.
  if (program === ':' && context.origin.at(-1) === EXPANSION_ORIGIN) return;
  const payloads = program === null ? [] : payloadsOf(program, args, parts.redirects);
  state.commands.push({
    kind: parts.kind,
    text: parts.text,
    name: unwrapped?.name ?? null,
    program,
    args,
    assignments: [...parts.assignments, ...(unwrapped?.assignments ?? [])],
    redirects: parts.redirects,
    wrappers: unwrapped?.wrappers ?? [],
    wrapperOptions: unwrapped?.wrapperOptions ?? [],
    ...(unwrapped?.problem === undefined ? {} : { unwrapProblem: unwrapped.problem }),
    origin: context.origin,
    pipeline: context.pipeline,
    payloads,
  });
  for (const payload of payloads) {
    if (payload.text === null || state.stopped) continue;
    state.analysePayload(payload.text, { ...context, origin: [...context.origin, payload.via] });
  }
  if (program !== null && commandBaseName(program) === 'find') {
    const inner = { ...context, origin: [...context.origin, FIND_EXEC_ORIGIN] };
    for (const [name, ...rest] of findExecCommands(args)) {
      if (name === undefined) continue;
      const text = [name, ...rest].map((word) => word.text).join(' ');
      addCommand(
        { kind: 'command', text, name, args: rest, assignments: [], redirects: [] },
        inner,
        state,
      );
    }
  }
}

// The command's words after brace expansion (`{rm,-rf,x}` runs `rm -rf x`).
function commandWords(
  nameNode: Node | null,
  argumentNodes: readonly Node[],
  state: WalkState,
): ShellWord[] {
  const words: ShellWord[] = [];
  for (const node of nameNode === null ? argumentNodes : [nameNode, ...argumentNodes]) {
    const expanded = wordsOf(node);
    if (expanded.unresolved) {
      report(
        state,
        'unsupported_syntax',
        `a brace expansion around a value known only at run time: \`${snippet(node.text)}\``,
      );
    }
    words.push(...expanded.words);
  }
  return words;
}

/**
 * Record a `command` node: its words after brace expansion, prefix assignments and redirections
 * (`inherited` are those written after the statement it is the body of).
 *
 * @example
 * visitCommand(node, context, state, []);
 */
export function visitCommand(
  node: Node,
  context: WalkContext,
  state: WalkState,
  inherited: readonly ShellRedirect[],
): void {
  const nameField = node.childForFieldName('name');
  const nameNode = nameField === null ? null : (nameField.firstNamedChild ?? nameField);
  // A name the parser had to invent (`ls &&`) is already a syntax error, not a command.
  const named = nameNode !== null && !nameNode.isMissing;
  const words = commandWords(named ? nameNode : null, node.childrenForFieldName('argument'), state);
  const name = named ? (words[0] ?? null) : null;
  const args = named ? words.slice(1) : words;
  const assignments = node.children
    .filter((child) => child.type === 'variable_assignment')
    .map(assignmentOf);
  const redirects = [
    ...node.childrenForFieldName('redirect').flatMap(redirectsUnder),
    ...inherited,
  ];
  const kind: SimpleCommandKind =
    name !== null ? 'command' : assignments.length > 0 ? 'assignment' : 'redirection';
  addCommand({ kind, text: node.text, name, args, assignments, redirects }, context, state);
}

/**
 * Record `export`, `declare`, `typeset`, `local`, `readonly` or `unset` as a declaration.
 *
 * @example
 * visitDeclaration(node, context, state);
 */
export function visitDeclaration(node: Node, context: WalkContext, state: WalkState): void {
  const keyword = node.children.find((child) => !child.isNamed)?.type ?? node.type;
  const args = node.namedChildren.map(wordOf);
  addCommand(
    {
      kind: 'declaration',
      text: node.text,
      name: literalWord(keyword),
      args,
      assignments: [],
      redirects: [],
    },
    context,
    state,
  );
}
