import { describe, expect, it } from 'vitest';
import { matchBlockAnchor } from './block-anchor.js';
import { STRATEGY_ORDER } from './match-types.js';
import {
  findMatch,
  matchExact,
  matchIndentationFlexible,
  matchLineTrimmed,
  matchNewlineNormalized,
  matchTrimmed,
  matchWhitespaceNormalized,
  STRATEGIES,
} from './matcher.js';

const slice = (content: string, span: { start: number; end: number }) =>
  content.slice(span.start, span.end);

describe('exact strategy', () => {
  it('finds the literal text with its 1-based line', () => {
    const content = 'a = 1\nb = 2\nc = 3\n';
    const [span] = matchExact(content, 'b = 2');
    expect(span).toEqual({ start: 6, end: 11, line: 2 });
  });

  it('counts overlapping occurrences so an ambiguous old_text is reported as such', () => {
    expect(matchExact('aaa', 'aa')).toHaveLength(2);
  });
});

describe('newline_normalized strategy', () => {
  it('matches LF old_text in a CRLF file and maps the span back to the CRLF bytes', () => {
    const content = 'one\r\ntwo\r\nthree\r\n';
    const [span] = matchNewlineNormalized(content, 'two\nthree\n');
    expect(span).toBeDefined();
    expect(slice(content, span as { start: number; end: number })).toBe('two\r\nthree\r\n');
    expect(span?.line).toBe(2);
  });

  it('matches CRLF old_text in an LF file', () => {
    const content = 'one\ntwo\nthree\n';
    const [span] = matchNewlineNormalized(content, 'one\r\ntwo');
    expect(slice(content, span as { start: number; end: number })).toBe('one\ntwo');
  });

  it('does nothing when neither side has a CR (exact already covered it)', () => {
    expect(matchNewlineNormalized('a\nb\n', 'a\nb')).toEqual([]);
  });
});

describe('trimmed strategy', () => {
  it('drops outer spaces and tabs of old_text and says how to trim new_text the same way', () => {
    const content = 'let a = 1;\nlet b = 2;\n';
    const [span] = matchTrimmed(content, '  let b = 2;\t ');
    expect(slice(content, span as { start: number; end: number })).toBe('let b = 2;');
    expect(span?.adjust).toEqual({ kind: 'trim', leading: '  ', trailing: '\t ' });
  });

  it('never matches part of a line when the trimmed whitespace held a line break: whole lines, re-based', () => {
    const content = 'def f():\n    x = 1\n    return x\n';
    const [span, ...more] = matchTrimmed(content, '\nx = 1\n');
    expect(more).toEqual([]);
    expect(slice(content, span as { start: number; end: number })).toBe('    x = 1\n');
    expect(span?.adjust).toEqual({ kind: 'lines', from: '', to: '    ', lineBreak: true });
  });

  it('drops stray blank lines around old_text and matches the lines between them', () => {
    const content = 'let a = 1;\nlet b = 2;\n';
    const [span] = matchTrimmed(content, '\n\n  let b = 2;  \n');
    expect(slice(content, span as { start: number; end: number })).toBe('let b = 2;\n');
    expect(span?.line).toBe(2);
  });

  it('does not apply when old_text has no outer whitespace', () => {
    expect(matchTrimmed('abc', 'abd')).toEqual([]);
  });
});

describe('line_trimmed strategy', () => {
  it('matches whole lines whose trailing whitespace differs', () => {
    const content = 'if (a) {   \n  go();\t\n}\n';
    const [span] = matchLineTrimmed(content, 'if (a) {\n  go();\n}');
    expect(slice(content, span as { start: number; end: number })).toBe(
      'if (a) {   \n  go();\t\n}',
    );
  });

  it('includes the last line break only when old_text ends with one', () => {
    const content = 'x  \ny\n';
    const [span] = matchLineTrimmed(content, 'x\n');
    expect(slice(content, span as { start: number; end: number })).toBe('x  \n');
  });

  it('never matches leading-indent differences', () => {
    expect(matchLineTrimmed('    a\n    b\n', 'a\nb')).toEqual([]);
  });
});

describe('indentation_flexible strategy', () => {
  const content = 'class A {\n    run() {\n        go();\n    }\n}\n';

  it('matches a block copied at another depth and reports both indents for re-basing', () => {
    const [span] = matchIndentationFlexible(content, 'run() {\n    go();\n}');
    expect(slice(content, span as { start: number; end: number })).toBe(
      '    run() {\n        go();\n    }',
    );
    expect(span?.line).toBe(2);
    expect(span?.adjust).toEqual({ kind: 'reindent', from: '', to: '    ' });
  });

  it('requires the relative indentation to be the same', () => {
    expect(matchIndentationFlexible(content, 'run() {\ngo();\n}')).toEqual([]);
  });
});

describe('whitespace_normalized strategy', () => {
  it('matches one line inside a longer line with collapsed runs of spaces and tabs', () => {
    const content = 'call(x  =\t 1, y);\n';
    const [span] = matchWhitespaceNormalized(content, 'x = 1');
    expect(slice(content, span as { start: number; end: number })).toBe('x  =\t 1');
  });

  it('matches multi-line blocks whose spacing differs inside the lines', () => {
    const content = 'function f(a,  b) {\n  return a  +  b;\n}\n';
    const [span] = matchWhitespaceNormalized(content, 'function f(a, b) {\n  return a + b;\n}');
    expect(slice(content, span as { start: number; end: number })).toBe(content.slice(0, -1));
  });
});

describe('block_anchor strategy', () => {
  const content = [
    'function total(items) {',
    '  let sum = 0;',
    '  for (const item of items) sum += item.price;',
    '  return sum;',
    '}',
    '',
  ].join('\n');

  it('matches a block whose first and last lines agree and whose middle is similar', () => {
    const old = [
      'function total(items) {',
      '  let sum = 0;',
      '  for (const item of items) sum += item.prise;',
      '  return sum;',
      '}',
    ].join('\n');
    const [span] = matchBlockAnchor(content, old);
    expect(slice(content, span as { start: number; end: number })).toBe(content.slice(0, -1));
  });

  it('refuses when the middle is not similar enough (hallucinated body)', () => {
    const old = [
      'function total(items) {',
      '  return items.reduce((a, b) => a + b, 0);',
      '  // done',
      '}',
    ].join('\n');
    expect(matchBlockAnchor(content, old)).toEqual([]);
  });

  it('refuses when two blocks qualify (only one candidate may exist)', () => {
    const twice = `${content}${content}`;
    const old = [
      'function total(items) {',
      '  let sum = 0;',
      '  for (const item of items) sum += item.prise;',
      '  return sum;',
      '}',
    ].join('\n');
    expect(matchBlockAnchor(twice, old)).toEqual([]);
  });

  it('refuses anchors made only of punctuation (opencode #14046)', () => {
    const file = '{\n  a: 1,\n  b: 2,\n}\n';
    expect(matchBlockAnchor(file, '{\n  a: 1,\n  b: 3,\n}')).toEqual([]);
  });

  it('compares lines over 1,000 chars for equality only', () => {
    const long = 'x'.repeat(1_500);
    const file = `start here\n${long}a\nend here\n`;
    expect(matchBlockAnchor(file, `start here\n${long}b\nend here`)).toEqual([]);
  });
});

describe('findMatch pipeline', () => {
  it('reports the first strategy that matches, in pipeline order', () => {
    const content = 'class A {\n    run() {\n        go();\n    }\n}\n';
    expect(findMatch(content, 'go();')).toMatchObject({ found: true, strategy: 'exact' });
    expect(findMatch(content, 'run() {\n    go();\n}')).toMatchObject({
      found: true,
      strategy: 'indentation_flexible',
    });
    expect(findMatch('a\r\nb\r\n', 'a\nb')).toMatchObject({ strategy: 'newline_normalized' });
    expect(findMatch('x  =   1;\n', 'x = 1;')).toMatchObject({ strategy: 'whitespace_normalized' });
  });

  it('runs unicode_normalized and escape_normalized last, after block_anchor', () => {
    expect(STRATEGY_ORDER.slice(-3)).toEqual([
      'block_anchor',
      'unicode_normalized',
      'escape_normalized',
    ]);
    expect(Object.keys(STRATEGIES)).toEqual([...STRATEGY_ORDER]);
  });

  it('stops at the first strategy with matches even if it has several (no fall-through)', () => {
    const outcome = findMatch('foo();\nfoo();\n', 'foo();');
    expect(outcome).toMatchObject({ found: true, strategy: 'exact' });
    expect(outcome.found && outcome.matches.map((m) => m.line)).toEqual([1, 2]);
  });

  it('strips consecutive "N: " prefixes copied from read when nothing else matched', () => {
    const content = 'alpha\n  beta\ngamma\n';
    const outcome = findMatch(content, '2:   beta\n3: gamma');
    expect(outcome).toMatchObject({
      found: true,
      strategy: 'exact',
      lineNumberPrefixStripped: true,
    });
  });

  it('does not strip prefixes whose numbers are not consecutive', () => {
    expect(findMatch('alpha\nbeta\n', '1: alpha\n5: beta')).toMatchObject({ found: false });
  });

  it('gives up with time_budget_exceeded when the budget is spent', () => {
    let now = 0;
    const clock = () => {
      now += 100;
      return now;
    };
    const outcome = findMatch('a\nb\nc\n', 'x\ny', { budgetMs: 250, clock });
    expect(outcome).toMatchObject({ found: false, reason: 'time_budget_exceeded' });
  });

  it('reports not_found on a 10,000-line file for hallucinated old_text', () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => (i % 7 === 6 ? '}' : `  line ${i};`));
    const outcome = findMatch(`${lines.join('\n')}\n`, '}\n  ghost();\n  more ghost();\nnever();');
    expect(outcome).toMatchObject({ found: false, reason: 'not_found' });
  });
});
