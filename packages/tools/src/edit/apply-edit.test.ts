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

describe('an old_text that spans lines never edits part of a line', () => {
  const py = 'def f():\n    x = 1\n    return x\n';

  it('the trimmed strategy: old_text with stray line breaks matches whole lines, new_text re-based', () => {
    expect(edit(py, '\nx = 1\n', '\n    x = 2\n')).toBe('def f():\n    x = 2\n    return x\n');
    expect(edit(py, '\nx = 1\n', '\nx = 2\n')).toBe('def f():\n    x = 2\n    return x\n');
    expect(edit(py, '\n\nx = 1\n  ', '\nx = 2\ny = 3\n')).toBe(
      'def f():\n    x = 2\n    y = 3\n    return x\n',
    );
  });

  it('deleting such a match removes the whole line, not just its text', () => {
    expect(edit(py, '\nx = 1\n', '')).toBe('def f():\n    return x\n');
  });

  it('a literal one-line match with its line break found after the indentation takes the whole line', () => {
    expect(findMatch(py, 'x = 1\n')).toMatchObject({ strategy: 'exact' });
    expect(edit(py, 'x = 1\n', '    x = 2\n')).toBe('def f():\n    x = 2\n    return x\n');
    expect(edit(py, 'x = 1\n', 'x = 2\ny = 3\n')).toBe(
      'def f():\n    x = 2\n    y = 3\n    return x\n',
    );
  });

  it('a literal match of several lines that starts mid-line stays literal', () => {
    const body = 'x = foo(a,\n        b)\n';
    expect(edit(body, 'foo(a,\n        b)', 'bar(a,\n        b)')).toBe('x = bar(a,\n        b)\n');
  });

  it('whitespace_normalized: a one-line old_text with a line break matches the whole line', () => {
    const body = 'def f():\n    x  =  1\n';
    expect(findMatch(body, 'x = 1\n')).toMatchObject({ strategy: 'whitespace_normalized' });
    expect(edit(body, 'x = 1\n', '    x = 2\n')).toBe('def f():\n    x = 2\n');
  });
});

describe('a stray leading or trailing blank line in old_text is tolerated', () => {
  it('by whitespace_normalized', () => {
    const body = 'a\nfoo  =  1\nbar\n';
    expect(findMatch(body, '\nfoo = 1\nbar\n\n')).toMatchObject({
      strategy: 'whitespace_normalized',
    });
    expect(edit(body, '\nfoo = 1\nbar\n\n', '\nfoo = 2\nbar\n\n')).toBe('a\nfoo = 2\nbar\n');
  });

  it('by block_anchor', () => {
    const body = 'x\nfunction total(items) {\n  let sum = 0;\n  return sum;\n}\ny\n';
    const old = '\nfunction total(items) {\n  let sum = 1;\n  return sum;\n}\n\n';
    expect(findMatch(body, old)).toMatchObject({ strategy: 'block_anchor' });
    expect(edit(body, old, '\nfunction total(items) {\n  return 0;\n}\n\n')).toBe(
      'x\nfunction total(items) {\n  return 0;\n}\ny\n',
    );
  });
});
