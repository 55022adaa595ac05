import { decodeEscapes } from './escapes.js';
import { commonIndent, isBlank, stripFraming } from './line-window.js';
import type { NewTextAdjustment } from './match-types.js';

/**
 * Re-base the indentation of LF-normalised `text` onto a block at indent `to`, old_text having
 * been written at `from`:
 * - new_text whose own common indent already is `to` was written at the block's real depth and
 *   stays as it is (old_text copied without its indentation, new_text with it);
 * - otherwise, when every non-blank line starts with `from`, that prefix becomes `to`, so lines
 *   keep their depth relative to old_text — a new_text that contains only the deeper lines of
 *   old_text still lands at the right depth;
 * - otherwise new_text's own common indent becomes `to` (its relative indentation is kept).
 * Blank lines are left as they are.
 *
 * @example
 * reindent('if (a) {\n  go();\n}', '', '    '); // '    if (a) {\n      go();\n    }'
 * reindent('    x = 2', '', '    '); // '    x = 2'
 */
export function reindent(text: string, from: string, to: string): string {
  const lines = text.split('\n');
  const nonBlank = lines.filter((line) => !isBlank(line));
  if (nonBlank.length === 0) return text;
  const own = commonIndent(nonBlank);
  if (own === to) return text;
  const base = nonBlank.every((line) => line.startsWith(from)) ? from : own;
  return lines.map((line) => (isBlank(line) ? line : to + line.slice(base.length))).join('\n');
}

/**
 * new_text with its unchanged head and tail (the characters it shares with old_text at either
 * end) taken from `matched`, the file's text that old_text matched character for character
 * after folding typography. Only what the model changed is written as the model wrote it.
 */
function keepTypography(text: string, oldText: string, matched: string): string {
  if (oldText.length !== matched.length) return text;
  const max = Math.min(text.length, oldText.length);
  let head = 0;
  while (head < max && text.charCodeAt(head) === oldText.charCodeAt(head)) head += 1;
  let tail = 0;
  while (
    tail < max - head &&
    text.charCodeAt(text.length - 1 - tail) === oldText.charCodeAt(oldText.length - 1 - tail)
  ) {
    tail += 1;
  }
  return (
    matched.slice(0, head) +
    text.slice(head, text.length - tail) +
    matched.slice(matched.length - tail)
  );
}

/**
 * Adapt LF-normalised new_text to what a fuzzy strategy matched (see {@link NewTextAdjustment}).
 *
 * @example
 * adaptNewText('\n  b = 2;\n', { kind: 'trim', leading: '\n  ', trailing: '\n' }); // 'b = 2;'
 * adaptNewText('go();', { kind: 'reindent', from: '', to: '\t' }); // '\tgo();'
 * adaptNewText('\n    x = 2\n', { kind: 'lines', from: '', to: '    ', lineBreak: true }); // '    x = 2\n'
 */
export function adaptNewText(text: string, adjust: NewTextAdjustment | undefined): string {
  if (adjust === undefined) return text;
  switch (adjust.kind) {
    case 'reindent':
      return reindent(text, adjust.from, adjust.to);
    case 'lines': {
      const { core } = stripFraming(text);
      if (isBlank(core)) return '';
      const rebased = reindent(core, adjust.from, adjust.to);
      return adjust.lineBreak ? `${rebased}\n` : rebased;
    }
    case 'typography':
      return adaptNewText(keepTypography(text, adjust.oldText, adjust.matched), adjust.next);
    case 'unescape':
      return adaptNewText(decodeEscapes(text, adjust.kinds), adjust.next);
    case 'trim': {
      let out = text;
      if (adjust.leading !== '' && out.startsWith(adjust.leading)) {
        out = out.slice(adjust.leading.length);
      }
      if (adjust.trailing !== '' && out.endsWith(adjust.trailing)) {
        out = out.slice(0, out.length - adjust.trailing.length);
      }
      return out;
    }
  }
}
