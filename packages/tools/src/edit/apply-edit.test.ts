import { describe, expect, it } from 'vitest';
import { applyEdit, nonOverlapping } from './apply-edit.js';
import { findMatch } from './matcher.js';
import { detectTextFormat } from './text-format.js';

function edit(body: string, oldText: string, newText: string, replaceAll = false): string {
  const outcome = findMatch(body, oldText);
  if (!outcome.found) throw new Error('no match');
  return applyEdit({
    body,
    matches: replaceAll ? outcome.matches : outcome.matches.slice(0, 1),
    newText,
    format: detectTextFormat(body),
    stripLinePrefixes: outcome.lineNumberPrefixStripped,
  }).text;
}

describe('applyEdit', () => {
  it('converts new_text line endings to the CRLF of the replaced region', () => {
    expect(edit('a\r\nb\r\nc\r\n', 'b', 'x\ny')).toBe('a\r\nx\r\ny\r\nc\r\n');
  });

  it('keeps a missing trailing newline when new_text ends with one', () => {
    expect(edit('a\nb', 'b', 'c\n')).toBe('a\nc');
  });

  it('keeps a trailing newline when the edit removed it', () => {
    expect(edit('a\nb\n', '\nb\n', '')).toBe('a\n');
  });

  it('re-bases new_text to the matched block’s indentation (indentation_flexible)', () => {
    const body = 'class A {\n    run() {\n        go();\n    }\n}\n';
    const out = edit(
      body,
      'run() {\n    go();\n}',
      'run() {\n    if (ready) {\n        go();\n    }\n}',
    );
    expect(out).toBe(
      'class A {\n    run() {\n        if (ready) {\n            go();\n        }\n    }\n}\n',
    );
  });

  it('removes "N: " prefixes from new_text when old_text only matched without them', () => {
    expect(edit('alpha\nbeta\n', '1: alpha\n2: beta', '1: alpha\n2: BETA')).toBe('alpha\nBETA\n');
  });

  it('replaces every non-overlapping match with replace_all', () => {
    expect(edit('x1 x2 x3', 'x', 'y', true)).toBe('y1 y2 y3');
    expect(
      nonOverlapping([
        { start: 0, end: 2, line: 1 },
        { start: 1, end: 3, line: 1 },
      ]),
    ).toHaveLength(1);
  });
});
