import { describe, expect, it } from 'vitest';
import { applyEdit } from './apply-edit.js';
import { matchEscapeNormalized } from './escape-normalized.js';
import { decodeEscapes, escapeKindsOf } from './escapes.js';
import { findMatch } from './matcher.js';
import { detectTextFormat } from './text-format.js';

/** The file after the edit, or the strategy's refusal. */
function edit(body: string, oldText: string, newText: string): string {
  const outcome = findMatch(body, oldText);
  if (!outcome.found) return `not found (${outcome.reason})`;
  if (outcome.matches.length !== 1) return `${outcome.matches.length} matches`;
  const format = detectTextFormat(body);
  return applyEdit({ body, matches: outcome.matches, newText, format, stripLinePrefixes: false })
    .text;
}

describe('escape_normalized strategy', () => {
  const py = 'def greet():\n    print("hi, it\'s me")\n    return "\\\\n"\n';

  it('matches old_text written with literal \\n, \\", \\\' and \\\\ escapes', () => {
    const old = 'def greet():\\n    print(\\"hi, it\\\'s me\\")\\n    return \\"\\\\\\\\n\\"';
    expect(findMatch(py, old)).toMatchObject({ found: true, strategy: 'escape_normalized' });
  });

  it('decodes the same escapes in new_text when it carries them', () => {
    expect(edit(py, 'print(\\"hi, it\\\'s me\\")', 'print(\\"bye\\")')).toBe(
      'def greet():\n    print("bye")\n    return "\\\\n"\n',
    );
  });

  it('leaves a new_text written cleanly alone', () => {
    expect(edit(py, 'print(\\"hi, it\\\'s me\\")', 'print("bye\\n")')).toBe(
      'def greet():\n    print("bye\\n")\n    return "\\\\n"\n',
    );
  });

  it('decodes only the kinds of escape old_text used', () => {
    expect(decodeEscapes('a\\tb \\"c\\"', '"')).toBe('a\\tb "c"');
    expect(escapeKindsOf('a\\nb\\\\c\\x')).toBe('n\\');
  });

  it('edits nothing when two places match once decoded (only one candidate may exist)', () => {
    const body = 'say("a")\nsay("a")\n';
    expect(matchEscapeNormalized(body, 'say(\\"a\\")')).toEqual([]);
    expect(edit(body, 'say(\\"a\\")', 'say(\\"b\\")')).toBe('not found (not_found)');
  });

  it('is not used when old_text matches as written (a file that really contains escapes)', () => {
    const c = 'printf("a\\n");\n';
    expect(findMatch(c, 'printf("a\\n");')).toMatchObject({ strategy: 'exact' });
  });
});
