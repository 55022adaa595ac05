import { describe, expect, it } from 'vitest';
import { applyEdit } from './apply-edit.js';
import { findMatch } from './matcher.js';
import { detectTextFormat } from './text-format.js';
import { foldTypography, matchUnicodeNormalized } from './unicode-normalized.js';

/** The file after the edit, or the strategy's refusal. */
function edit(body: string, oldText: string, newText: string): string {
  const outcome = findMatch(body, oldText);
  if (!outcome.found) return `not found (${outcome.reason})`;
  if (outcome.matches.length !== 1) return `${outcome.matches.length} matches`;
  const format = detectTextFormat(body);
  return applyEdit({ body, matches: outcome.matches, newText, format, stripLinePrefixes: false })
    .text;
}

describe('unicode_normalized strategy', () => {
  it('matches ASCII old_text against en and em dashes, curly quotes and non-breaking spaces', () => {
    const body = 'title = “Ranges – and more” — done\nprice =\u00A042\n';
    expect(findMatch(body, 'title = "Ranges - and more" - done')).toMatchObject({
      found: true,
      strategy: 'unicode_normalized',
    });
    expect(findMatch(body, 'price = 42')).toMatchObject({ strategy: 'unicode_normalized' });
  });

  it('keeps the file’s typography outside the part new_text changes', () => {
    const body = 'say “hi” – ok\nnext\n';
    expect(edit(body, 'say "hi" - ok', 'say "hello" - ok')).toBe('say “hello” – ok\nnext\n');
    expect(edit('a\u00A0=\u00A01\n', 'a = 1', 'a = 2')).toBe('a\u00A0=\u00A02\n');
  });

  it('matches Unicode old_text against an ASCII file too', () => {
    expect(edit("it's - fine\n", 'it’s – fine', "it's - great")).toBe("it's - great\n");
  });

  it('edits nothing when two places match after folding (only one candidate may exist)', () => {
    const body = 'x – 1\nx — 1\n';
    expect(matchUnicodeNormalized(body, 'x - 1')).toEqual([]);
    expect(edit(body, 'x - 1', 'y')).toBe('not found (not_found)');
  });

  it('matches whole lines at another depth with a stray blank line, re-based', () => {
    const body = 'def f():\n    return “a” – 1\n';
    expect(edit(body, '\nreturn "a" - 1\n', '\nreturn "b" - 1\n')).toBe(
      'def f():\n    return "b" - 1\n',
    );
  });

  it('folds offset for offset, so spans stay valid in the file', () => {
    const text = '\u00A0“a”\u2013\u2014\u2212\u2009';
    expect(foldTypography(text)).toBe(' "a"--- ');
    expect(foldTypography(text)).toHaveLength(text.length);
  });
});
