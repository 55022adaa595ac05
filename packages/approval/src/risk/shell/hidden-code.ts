import type { Node } from 'web-tree-sitter';
import { addCommand } from './record-command.js';
import { snippet } from './snippet.js';
import { EXPANSION_ORIGIN, report, type WalkContext, type WalkState } from './walk-state.js';

const SUBSTITUTION = /\$\(|`|\$\[|[<>]\(/;

/**
 * Text the grammar leaves as one token although bash expands substitutions in it (the pattern of
 * `${x#$(cmd)}`, the default of `${x:-`cmd`}`) is read again as the argument of a no-op.
 *
 * @example
 * analyseOpaqueText(regexNode, 'regex', context, state);
 */
export function analyseOpaqueText(
  node: Node,
  type: string,
  context: WalkContext,
  state: WalkState,
): void {
  // Escaped characters (`\``, `\$(`) start nothing.
  if (node.childCount > 0 || !SUBSTITUTION.test(node.text.replace(/\\./gs, ''))) return;
  const text = type === 'string_content' ? `: "${node.text}"` : `: ${node.text}`;
  state.analysePayload(text, { ...context, origin: [...context.origin, EXPANSION_ORIGIN] });
}

// The text between unescaped backticks (an unterminated one runs to the end).
function backtickSegments(text: string): string[] {
  const segments: string[] = [];
  let start = -1;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (char === '`' && start < 0) start = index + 1;
    else if (char === '`') {
      segments.push(text.slice(start, index));
      start = -1;
    }
  }
  if (start >= 0) segments.push(text.slice(start));
  return segments;
}

/**
 * An unquoted heredoc runs the backtick substitutions in its body, which the grammar leaves as
 * plain text (it does parse `$(…)` there); each is analysed as a payload.
 *
 * @example
 * analyseHeredocBackticks(heredocRedirectNode, context, state);
 */
export function analyseHeredocBackticks(node: Node, context: WalkContext, state: WalkState): void {
  const start = node.children.find((child) => child.type === 'heredoc_start');
  const body = node.children.find((child) => child.type === 'heredoc_body');
  if (body === undefined || (start !== undefined && /['"\\]/.test(start.text))) return;
  const inner = { ...context, origin: [...context.origin, 'command substitution'] };
  for (const segment of backtickSegments(body.text)) {
    state.analysePayload(segment.replace(/\\([`$\\])/g, '$1'), inner);
  }
}

/**
 * Report `${!name}` and `${name@P}`, which evaluate a variable's value at run time, and record
 * `${name:=value}` as the assignment it is.
 *
 * @example
 * checkExpansion(expansionNode, context, state);
 */
export function checkExpansion(node: Node, context: WalkContext, state: WalkState): void {
  const tokens = node.children.map((child) => (child.isNamed ? '' : child.type));
  // `${x:=value}` and `${x=value}` assign x, which later commands read: an assignment.
  if (tokens.includes(':=') || tokens.includes('=')) {
    const name = node.children.find((child) => child.type === 'variable_name')?.text ?? '';
    const assignment = { name, value: null, text: node.text };
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
  // `${!name}` reads the variable named by name's value; `${name@P}` expands it as a prompt.
  // Both evaluate text at run time, and a subscript in that text runs command substitutions.
  const indirect = tokens[1] === '!';
  const prompt = tokens.some((token, index) => token === '@' && tokens[index + 1] === 'P');
  if (indirect || prompt) report(state, 'indirect_expansion', snippet(node.text));
}
