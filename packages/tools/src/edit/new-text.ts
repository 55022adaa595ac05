import { commonIndent, isBlank } from './line-window.js';
import type { NewTextAdjustment } from './match-types.js';

/**
 * Re-base the indentation of LF-normalised `text` from `from` to `to`.
 * When every non-blank line starts with `from` (old_text's common indent), that prefix is
 * replaced by `to` (the matched block's), so lines keep their depth relative to old_text — a
 * new_text that contains only the deeper lines of old_text still lands at the right depth.
 * Otherwise new_text's own common indent is replaced by `to` (so its relative indentation is kept). Blank lines are
 * left as they are.
 *
 * @example
 * reindent('if (a) {\n  go();\n}', '', '    '); // '    if (a) {\n      go();\n    }'
 */
export function reindent(text: string, from: string, to: string): string {
  const lines = text.split('\n');
  const nonBlank = lines.filter((line) => !isBlank(line));
  if (nonBlank.length === 0) return text;
  const base = nonBlank.every((line) => line.startsWith(from)) ? from : commonIndent(nonBlank);
  return lines.map((line) => (isBlank(line) ? line : to + line.slice(base.length))).join('\n');
}

/**
 * Adapt LF-normalised new_text to what a fuzzy strategy matched (see {@link NewTextAdjustment}).
 *
 * @example
 * adaptNewText('\n  b = 2;\n', { kind: 'trim', leading: '\n  ', trailing: '\n' }); // 'b = 2;'
 * adaptNewText('go();', { kind: 'reindent', from: '', to: '\t' }); // '\tgo();'
 */
export function adaptNewText(text: string, adjust: NewTextAdjustment | undefined): string {
  if (adjust === undefined) return text;
  if (adjust.kind === 'reindent') return reindent(text, adjust.from, adjust.to);
  let out = text;
  if (adjust.leading !== '' && out.startsWith(adjust.leading)) {
    out = out.slice(adjust.leading.length);
  }
  if (adjust.trailing !== '' && out.endsWith(adjust.trailing)) {
    out = out.slice(0, out.length - adjust.trailing.length);
  }
  return out;
}
