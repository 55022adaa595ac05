import type { Node } from 'web-tree-sitter';
import type { ShellRedirect } from './shell-redirect.js';
import { wordOf } from './word-nodes.js';

// The redirection a redirect node of the grammar stands for: kept apart from the ShellRedirect
// shape, which is public, so the published declarations never reach the parser's types.
function operatorOf(node: Node): string {
  for (const child of node.children) if (!child.isNamed) return child.type;
  return '';
}

function fileRedirect(node: Node): ShellRedirect {
  const operator = operatorOf(node);
  const destination = node.childForFieldName('destination');
  const target = destination === null ? null : wordOf(destination);
  // `>&2`, `<&0`, `>&-`: a copy or close of a descriptor, no file involved.
  const duplicates =
    (operator === '>&' || operator === '<&') &&
    target !== null &&
    target.value !== null &&
    /^(\d+-?|-)$/.test(target.value);
  if (duplicates)
    return { text: node.text, operator, target: null, writes: false, reads: false, input: null };
  return {
    text: node.text,
    operator,
    target,
    writes: operator.includes('>'),
    reads: operator.includes('<'),
    input: null,
  };
}

function heredocInput(node: Node): string | null {
  const start = node.children.find((child) => child.type === 'heredoc_start');
  const body = node.children.find((child) => child.type === 'heredoc_body');
  if (body === undefined) return '';
  // A quoted delimiter (`<<'EOF'`, `<<"EOF"`, `<<\EOF`) keeps the body literal.
  if (start !== undefined && /['"\\]/.test(start.text)) return body.text;
  if (body.namedChildren.some((child) => child.type !== 'heredoc_content')) return null;
  return body.text.replace(/\\\n/g, '').replace(/\\([$`\\])/g, '$1');
}

/**
 * The redirection a redirect node stands for.
 *
 * @example
 * redirectOf(fileRedirectNode).writes; // true for `> out`
 */
export function redirectOf(node: Node): ShellRedirect {
  if (node.type === 'file_redirect') return fileRedirect(node);
  const operator = operatorOf(node);
  if (node.type === 'heredoc_redirect') {
    return {
      text: node.text,
      operator,
      target: null,
      writes: false,
      reads: false,
      input: heredocInput(node),
    };
  }
  const word = node.namedChildren.find((child) => child.type !== 'file_descriptor');
  const input = word === undefined ? null : wordOf(word).value;
  return {
    text: node.text,
    operator,
    target: null,
    writes: false,
    reads: false,
    input: input === null ? null : `${input}\n`,
  };
}
