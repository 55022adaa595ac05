import { describe, expect, it } from 'vitest';
import {
  convertEol,
  countEols,
  detectEol,
  detectTextFormat,
  normalizeEol,
  restoreTextFormat,
  splitBom,
  withTrailingNewline,
} from './text-format.js';

describe('text format detection', () => {
  it('detects LF, CRLF and CR files and the dominant style of mixed ones', () => {
    expect(detectEol('a\nb\n')).toBe('\n');
    expect(detectEol('a\r\nb\r\n')).toBe('\r\n');
    expect(detectEol('a\rb\r')).toBe('\r');
    expect(detectEol('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(detectEol('no break')).toBeUndefined();
    expect(countEols('a\r\nb\nc\rd')).toEqual({ crlf: 1, lf: 1, cr: 1 });
  });

  it('detects a BOM, mixed endings and the trailing-newline state', () => {
    expect(detectTextFormat('\uFEFFa\r\nb')).toEqual({
      bom: true,
      eol: '\r\n',
      mixedEol: false,
      trailingNewline: false,
    });
    expect(detectTextFormat('a\nb\r\n')).toMatchObject({
      bom: false,
      mixedEol: true,
      trailingNewline: true,
    });
    expect(detectTextFormat('')).toMatchObject({ eol: '\n', trailingNewline: false });
    expect(splitBom('\uFEFFx')).toEqual({ bom: true, body: 'x' });
  });
});

describe('text format restoration', () => {
  it('converts every line ending to one style', () => {
    expect(normalizeEol('a\r\nb\rc\n')).toBe('a\nb\nc\n');
    expect(convertEol('a\nb\r\nc', '\r\n')).toBe('a\r\nb\r\nc');
    expect(convertEol('a\r\nb', '\n')).toBe('a\nb');
  });

  it('adds or removes one final line break, never on empty text', () => {
    expect(withTrailingNewline('a', true, '\r\n')).toBe('a\r\n');
    expect(withTrailingNewline('a\r\n', false, '\r\n')).toBe('a');
    expect(withTrailingNewline('a\n\n', false, '\n')).toBe('a\n');
    expect(withTrailingNewline('', true, '\n')).toBe('');
  });

  it('puts the BOM back and keeps the trailing-newline state', () => {
    const format = detectTextFormat('\uFEFFx\r\ny');
    expect(restoreTextFormat('x\r\nz\r\n', format)).toBe('\uFEFFx\r\nz');
  });
});
