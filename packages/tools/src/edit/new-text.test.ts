import { describe, expect, it } from 'vitest';
import { adaptNewText, reindent } from './new-text.js';

describe('new_text re-basing', () => {
  it('re-bases new_text from old_text’s indent to the matched block’s, keeping relative depth', () => {
    expect(reindent('if (a) {\n  go();\n}', '', '    ')).toBe('    if (a) {\n      go();\n    }');
  });

  it('keeps the depth of new_text lines that are only the deeper lines of old_text', () => {
    // old_text was "  if (x):\n    y()" (indent 2); the block sits at 8; new_text keeps only y().
    expect(reindent('    y()', '  ', '        ')).toBe('          y()');
  });

  it('falls back to new_text’s own common indent when it is shallower than old_text’s', () => {
    expect(reindent('  a\n    b', '    ', '\t')).toBe('\ta\n\t  b');
  });

  it('keeps new_text that was written at the block’s real depth where it is (no double indent)', () => {
    // old_text "x = 1" was copied without the block's indent; new_text carries it.
    expect(reindent('    x = 2', '', '    ')).toBe('    x = 2');
    expect(reindent('    if c:\n        x = 2', '', '    ')).toBe('    if c:\n        x = 2');
  });

  it('leaves blank lines alone', () => {
    expect(reindent('a\n\nb', '', '  ')).toBe('  a\n\n  b');
  });
});

describe('adaptNewText', () => {
  it('trims the same outer whitespace that was trimmed from old_text', () => {
    expect(adaptNewText('\n  b = 2;\n', { kind: 'trim', leading: '\n  ', trailing: '\n' })).toBe(
      'b = 2;',
    );
    expect(adaptNewText('b = 2;', { kind: 'trim', leading: '\n', trailing: '\n' })).toBe('b = 2;');
  });

  it('drops stray blank lines of new_text for a whole-line match, re-bases it and puts the break back', () => {
    const adjust = { kind: 'lines', from: '', to: '    ', lineBreak: true } as const;
    expect(adaptNewText('\nx = 2\n', adjust)).toBe('    x = 2\n');
    expect(adaptNewText('\n\n    x = 2\n  ', adjust)).toBe('    x = 2\n');
    expect(adaptNewText('\n', adjust)).toBe('');
    expect(adaptNewText('x = 2', { ...adjust, lineBreak: false })).toBe('    x = 2');
  });

  it('returns new_text unchanged without an adjustment', () => {
    expect(adaptNewText(' x ', undefined)).toBe(' x ');
  });
});
