import { describe, expect, it } from 'vitest';
import { framedBlock, stripFraming } from './line-window.js';

describe('stray blank lines around old_text', () => {
  it('are split off, the first content line keeping its indentation', () => {
    expect(stripFraming('\n  x = 1\n\n')).toEqual({
      leading: '\n',
      core: '  x = 1',
      trailing: '\n\n',
    });
    expect(stripFraming(' \t\n\tif a:\n\t\tb  \n    ')).toEqual({
      leading: ' \t\n',
      core: '\tif a:\n\t\tb  ',
      trailing: '\n    ',
    });
    expect(stripFraming('a\nb')).toEqual({ leading: '', core: 'a\nb', trailing: '' });
    expect(stripFraming(' \n\n')).toEqual({ leading: ' \n\n', core: '', trailing: '' });
  });

  it('make a framed block only when there is more than the last line’s own break', () => {
    expect(framedBlock('a\nb\n')).toBeUndefined();
    expect(framedBlock('a\nb')).toBeUndefined();
    expect(framedBlock('\na\nb')).toEqual({ lines: ['a', 'b'], endsWithNewline: true });
    expect(framedBlock('a\n\n')).toEqual({ lines: ['a'], endsWithNewline: true });
  });
});
