import type { Node } from 'web-tree-sitter';
import type { AnalysisBudget } from './analysis-budget.js';
import { commandBaseName, unwrapCommand } from './command-wrappers.js';
import { findExecCommands, payloadsOf } from './shell-payloads.js';
import type { ShellProblem, ShellProblemKind } from './shell-problem.js';
import { REDIRECT_NODE_TYPES, redirectOf, type ShellRedirect } from './shell-redirect.js';
import { literalWord, type ShellWord, wordOf } from './shell-word.js';
import type { ShellAssignment, SimpleCommand, SimpleCommandKind } from './simple-command.js';
import { snippet } from './snippet.js';

/**
 * Where the walker is: which substitutions and payloads it is inside, the pipeline stage, and
 * whether bash evaluates the text as arithmetic or as a `[[ ]]` test.
 *
 * @example
 * const top: WalkContext = { origin: [], pipeline: null, arithmetic: false, test: false, payloadDepth: 0 };
 */
export interface WalkContext {
  readonly origin: readonly string[];
  readonly pipeline: { readonly id: number; readonly stage: number } | null;
  readonly arithmetic: boolean;
  readonly test: boolean;
  readonly payloadDepth: number;
}

/**
 * What one analysis has found so far, shared by the program and every payload inside it.
 *
 * @example
 * const state: WalkState = { budget, deadline, now, commands: [], redirects: [], problems: [],
 *   analysePayload, nodes: 0, pipelines: 0, stopped: false };
 */
export interface WalkState {
  readonly budget: AnalysisBudget;
  readonly deadline: number;
  readonly now: () => number;
  readonly commands: SimpleCommand[];
  readonly redirects: ShellRedirect[];
  readonly problems: ShellProblem[];
  /** Parses and walks a payload; provided by the analysis, which owns the parser. */
  readonly analysePayload: (text: string, context: WalkContext) => void;
  nodes: number;
  pipelines: number;
  /** Set once a budget is exceeded: nothing more is walked. */
  stopped: boolean;
}

interface Frame {
  readonly node: Node;
  readonly context: WalkContext;
  readonly depth: number;
  readonly parentType: string;
  /** Redirections written after the statement this command is the body of (`cmd > out`). */
  readonly redirects?: readonly ShellRedirect[];
}

const CASE_TERMINATORS = new Set([';;', ';&', ';;&']);
const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const QUOTED = new Set(['raw_string', 'string', 'ansi_c_string', 'translated_string']);
// Parents under which a variable_assignment is not a statement of its own.
const ASSIGNMENT_OWNERS = new Set(['command', 'declaration_command']);
// How often (in nodes) the clock is read; reading it every node would cost more than the walk.
const CLOCK_EVERY = 256;

function report(state: WalkState, kind: ShellProblemKind, detail: string): void {
  if (!state.problems.some((problem) => problem.kind === kind && problem.detail === detail)) {
    state.problems.push({ kind, detail });
  }
}

/**
 * Stop the analysis because a limit was hit; what was found so far is still judged.
 *
 * @example
 * overBudget(state, 'the command nests payloads more than 5 deep');
 */
export function overBudget(state: WalkState, detail: string): void {
  report(state, 'over_budget', detail);
  state.stopped = true;
}

function assignmentOf(node: Node): ShellAssignment {
  const name = node.childForFieldName('name');
  const value = node.childForFieldName('value');
  return {
    name: name?.text ?? '',
    value: value === null ? '' : wordOf(value).value,
    text: node.text,
  };
}

// A redirect node and the file redirects nested inside a heredoc redirect (`cat <<EOF > out`).
function redirectsUnder(node: Node): ShellRedirect[] {
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

// Unwraps, records, and follows what the command runs in turn (payloads, `find -exec`).
function addCommand(parts: CommandParts, context: WalkContext, state: WalkState): void {
  const unwrapped = parts.name === null ? null : unwrapCommand(parts.name, parts.args);
  const program = unwrapped?.name.value ?? null;
  const args = unwrapped?.args ?? parts.args;
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
    const inner = { ...context, origin: [...context.origin, 'find -exec'] };
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

function visitCommand(
  node: Node,
  context: WalkContext,
  state: WalkState,
  inherited: readonly ShellRedirect[],
): void {
  const nameNode = node.childForFieldName('name');
  const word = nameNode === null ? null : (nameNode.firstNamedChild ?? nameNode);
  // A name the parser had to invent (`ls &&`) is already a syntax error, not a command.
  const name = word === null || word.isMissing ? null : wordOf(word);
  const args = node.childrenForFieldName('argument').map(wordOf);
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

function visitDeclaration(node: Node, context: WalkContext, state: WalkState): void {
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

function checkExpansion(node: Node, state: WalkState): void {
  const tokens = node.children.map((child) => (child.isNamed ? '' : child.type));
  // `${!name}` reads the variable named by name's value; `${name@P}` expands it as a prompt.
  // Both evaluate text at run time, and a subscript in that text runs command substitutions.
  const indirect = tokens[1] === '!';
  const prompt = tokens.some((token, index) => token === '@' && tokens[index + 1] === 'P');
  if (indirect || prompt) report(state, 'indirect_expansion', snippet(node.text));
}

// Checks a node for problems of its own and records what it stands for; returns the context its
// children are walked in, or null when they need no walk. `type` is read once by the caller:
// every read of a node property is a call into the wasm module.
function visit(frame: Frame, type: string, errors: boolean, state: WalkState): WalkContext | null {
  const { node, context } = frame;
  if (errors) {
    if (type === 'ERROR') report(state, 'syntax_error', `cannot parse \`${snippet(node.text)}\``);
    else if (node.isMissing) report(state, 'syntax_error', `a \`${type}\` is missing`);
  }
  if (CASE_TERMINATORS.has(type) && frame.parentType !== 'case_item') {
    report(state, 'syntax_error', `\`${type}\` outside a case statement`);
  }
  if (context.arithmetic && QUOTED.has(type))
    report(state, 'arithmetic_string', snippet(node.text));
  if (REDIRECT_NODE_TYPES.has(type)) state.redirects.push(redirectOf(node));
  switch (type) {
    case 'comment':
      return null;
    case 'command':
      visitCommand(node, context, state, frame.redirects ?? []);
      return { ...context, arithmetic: false, test: false };
    case 'declaration_command':
    case 'unset_command':
      visitDeclaration(node, context, state);
      return context;
    case 'variable_assignment':
      if (!context.arithmetic && !ASSIGNMENT_OWNERS.has(frame.parentType)) {
        const assignment = assignmentOf(node);
        addCommand(
          {
            kind: 'assignment',
            text: node.text,
            name: null,
            args: [],
            assignments: [assignment],
            redirects: [],
          },
          context,
          state,
        );
      }
      return context;
    case 'function_definition':
      report(
        state,
        'function_definition',
        snippet(node.childForFieldName('name')?.text ?? node.text),
      );
      return context;
    case 'command_substitution':
      return {
        ...context,
        origin: [...context.origin, 'command substitution'],
        pipeline: null,
        arithmetic: false,
        test: false,
      };
    case 'process_substitution':
      return {
        ...context,
        origin: [...context.origin, 'process substitution'],
        pipeline: null,
        arithmetic: false,
        test: false,
      };
    case 'arithmetic_expansion':
      return { ...context, arithmetic: true };
    case 'compound_statement':
      return node.firstChild?.type === '((' ? { ...context, arithmetic: true } : context;
    case 'test_command':
      return { ...context, test: true };
    case 'binary_expression': {
      const operator = node.childForFieldName('operator')?.text ?? '';
      return context.test && ARITHMETIC_TESTS.has(operator)
        ? { ...context, arithmetic: true }
        : context;
    }
    case 'expansion':
      checkExpansion(node, state);
      return context;
    default:
      return context;
  }
}

// The frame of each child, where its context differs by field or position from the parent's.
// Children come from `node.children` (one linear call): indexing `child(i)` or asking
// `fieldNameForChild(i)` is linear per call in tree-sitter, quadratic over a long list.
function childFrames(frame: Frame, type: string, inner: WalkContext, state: WalkState): Frame[] {
  const { node } = frame;
  const depth = frame.depth + 1;
  const parentType = type;
  const children = node.children;
  switch (type) {
    case 'pipeline': {
      const id = ++state.pipelines;
      let stage = 0;
      return children.map((child) => {
        const childType = child.type;
        if (childType === '|' || childType === '|&') {
          stage += 1;
          return { node: child, context: inner, depth, parentType };
        }
        const context = { ...inner, pipeline: { id, stage } };
        return { node: child, context, depth, parentType };
      });
    }
    case 'c_style_for_statement': {
      const body = node.childForFieldName('body')?.id;
      return children.map((child) => ({
        node: child,
        context: { ...inner, arithmetic: child.id !== body },
        depth,
        parentType,
      }));
    }
    case 'subscript': {
      const index = node.childForFieldName('index')?.id;
      return children.map((child) => ({
        node: child,
        context: child.id === index ? { ...inner, arithmetic: true } : inner,
        depth,
        parentType,
      }));
    }
    case 'redirected_statement': {
      const body = node.childForFieldName('body');
      const redirects =
        body?.type === 'command'
          ? node.childrenForFieldName('redirect').flatMap(redirectsUnder)
          : [];
      return children.map((child) =>
        child.id === body?.id
          ? { node: child, context: inner, depth, parentType, redirects }
          : { node: child, context: inner, depth, parentType },
      );
    }
    default:
      return children.map((child) => ({ node: child, context: inner, depth, parentType }));
  }
}

/**
 * Walk a syntax tree without recursion (a 10,000-deep tree must not overflow the stack), record
 * every simple command, redirection and problem into `state`, and follow payloads. Stops as soon
 * as the node, depth or time budget is exceeded.
 *
 * @example
 * walkTree(tree.rootNode, topContext, state);
 */
export function walkTree(root: Node, context: WalkContext, state: WalkState): void {
  const stack: Frame[] = [{ node: root, context, depth: 0, parentType: '' }];
  const { budget } = state;
  // Without an error anywhere in the tree, no node needs asking whether it is one.
  const errors = root.hasError;
  while (stack.length > 0 && !state.stopped) {
    const frame = stack.pop() as Frame;
    state.nodes += 1;
    if (state.nodes > budget.maxNodes) {
      overBudget(state, `the command has more than ${budget.maxNodes} syntax nodes`);
      return;
    }
    if (frame.depth > budget.maxDepth) {
      overBudget(state, `the command nests more than ${budget.maxDepth} levels deep`);
      return;
    }
    if (state.nodes % CLOCK_EVERY === 0 && state.now() > state.deadline) {
      overBudget(state, `the analysis took longer than ${budget.maxMilliseconds} ms`);
      return;
    }
    const type = frame.node.type;
    const inner = visit(frame, type, errors, state);
    if (inner === null) continue;
    const children = childFrames(frame, type, inner, state);
    for (let index = children.length - 1; index >= 0; index -= 1)
      stack.push(children[index] as Frame);
  }
}
