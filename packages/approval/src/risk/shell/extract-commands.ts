import type { Node } from 'web-tree-sitter';
import { recordLoopVariable, unrollForLoop } from './for-loops.js';
import { analyseHeredocBackticks, analyseOpaqueText, checkExpansion } from './hidden-code.js';
import {
  addCommand,
  assignmentOf,
  redirectsUnder,
  visitCommand,
  visitDeclaration,
} from './record-command.js';
import { redirectOf } from './redirect-nodes.js';
import { REDIRECT_NODE_TYPES, type ShellRedirect } from './shell-redirect.js';
import { snippet } from './snippet.js';
import { overBudget, report, type WalkContext, type WalkState } from './walk-state.js';

interface Frame {
  readonly node: Node;
  readonly context: WalkContext;
  readonly depth: number;
  readonly parentType: string;
  /** Redirections written after the statement this command is the body of (`cmd > out`). */
  readonly redirects?: readonly ShellRedirect[];
}

const CASE_TERMINATORS = new Set([';;', ';&', ';;&']);
// Test operators whose operands bash evaluates as arithmetic (`-v` and `-R` evaluate a subscript).
const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-v', '-R']);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SUBSCRIPT_CODE = /\[[^\]]*(\$\(|`)/;
const QUOTED = new Set(['raw_string', 'string', 'ansi_c_string', 'translated_string']);
// Parents under which a variable_assignment is not a statement of its own.
const ASSIGNMENT_OWNERS = new Set(['command', 'declaration_command']);
// How often (in nodes) the clock is read; reading it every node would cost more than the walk.
const CLOCK_EVERY = 256;

// Checks a node for problems of its own and records what it stands for; returns the context its
// children are walked in, or null when they need no walk. `type` is read once by the caller:
// every read of a node property is a call into the wasm module.
function visit(frame: Frame, type: string, errors: boolean, state: WalkState): WalkContext | null {
  const { node, context } = frame;
  if (errors) {
    if (type === 'ERROR') report(state, 'syntax_error', `cannot parse \`${snippet(node.text)}\``);
    else if (node.isMissing) report(state, 'syntax_error', `a \`${type}\` is missing`);
  }
  // `echo (whoami)` (fish's command substitution): the grammar reads a subshell as the command's
  // last argument, where bash refuses the `(`.
  if (type === 'subshell' && frame.parentType === 'command') {
    report(state, 'syntax_error', `\`(\` after a command's words in \`${snippet(node.text)}\``);
  }
  if (CASE_TERMINATORS.has(type) && frame.parentType !== 'case_item') {
    report(state, 'syntax_error', `\`${type}\` outside a case statement`);
  }
  if (context.arithmetic && QUOTED.has(type)) {
    report(state, 'arithmetic_string', snippet(node.text));
  }
  // `[ $op 'a[$(cmd)]' ]` with op=-v evaluates the subscript: in a test, such text is suspect
  // whatever operator the analysis can see.
  if (context.test && (QUOTED.has(type) || type === 'word') && SUBSCRIPT_CODE.test(node.text)) {
    report(state, 'arithmetic_string', snippet(node.text));
  }
  // `$((x))` evaluates x's value as arithmetic too, and `a[$(cmd)]` in it runs cmd: a loop
  // variable (`for x in 'a[$(cmd)]'`) or an inherited one can carry it. `$?` and friends are
  // special_variable_name nodes and cannot.
  if (
    context.arithmetic &&
    (type === 'variable_name' || (type === 'word' && IDENTIFIER.test(node.text)))
  ) {
    report(state, 'arithmetic_variable', node.text);
  }
  if (REDIRECT_NODE_TYPES.has(type)) state.redirects.push(redirectOf(node));
  switch (type) {
    case 'comment':
      return null;
    case 'for_statement':
      recordLoopVariable(node, context, state);
      return unrollForLoop(node, context, state) ? null : context;
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
    case 'command_substitution': {
      const inner = {
        ...context,
        origin: [...context.origin, 'command substitution'],
        pipeline: null,
        arithmetic: false,
        test: false,
      };
      // Inside backticks bash first turns \` \$ \\ into ` $ \, so `echo \`rm x\`` nests a
      // substitution the grammar reads as plain words: analyse the unescaped text instead.
      const text = node.text;
      if (text.startsWith('`') && /\\[`$\\]/.test(text)) {
        state.analysePayload(text.slice(1, -1).replace(/\\([`$\\])/g, '$1'), inner);
        return null;
      }
      return inner;
    }
    case 'heredoc_redirect':
      analyseHeredocBackticks(node, context, state);
      return context;
    case 'word':
    case 'regex':
    case 'extglob_pattern':
    case 'string_content':
      analyseOpaqueText(node, type, context, state);
      return context;
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
    case 'binary_expression':
    case 'unary_expression': {
      const operator = node.childForFieldName('operator')?.text ?? '';
      return context.test && ARITHMETIC_TESTS.has(operator)
        ? { ...context, arithmetic: true }
        : context;
    }
    case 'expansion':
      checkExpansion(node, context, state);
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
    case 'expansion': {
      // `${x:offset:length}`: what follows the `:` operator is arithmetic.
      let offset = false;
      return children.map((child) => {
        if (child.type === ':') offset = true;
        const context = offset && child.isNamed ? { ...inner, arithmetic: true } : inner;
        return { node: child, context, depth, parentType };
      });
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
