import { describe, expect, it } from 'vitest';
import { createMarkdownStream } from './markdown.js';

const ESC = String.fromCharCode(27);
const SGR = new RegExp(`${ESC}\\[[0-9;]*m`, 'g');

const render = (chunks: string[]): string => {
  let out = '';
  const md = createMarkdownStream((text) => {
    out += text;
  });
  for (const chunk of chunks) md.write(chunk);
  md.flush();
  // The colours are tiny-claw's own SGR codes; the shape is what these tests read.
  return out.replace(SGR, '');
};

describe('Markdown for the terminal', () => {
  it.each([
    ['# Title', 'Title\n'],
    ['### Deep heading', 'Deep heading\n'],
    ['- one', '• one\n'],
    ['  * nested', '  • nested\n'],
    ['> quoted', '│ quoted\n'],
    ['use `npm test` **now**', 'use npm test now\n'],
    ['```ts\nlet a = 1;\n```', '┌─ ts\n│ let a = 1;\n└─\n'],
    ['```\n# not a heading\n```', '┌─ code\n│ # not a heading\n└─\n'],
    ['plain text', 'plain text\n'],
  ])('%j renders as %j', (input, expected) => {
    expect(render([input])).toBe(expected);
  });

  it('renders the same however the stream is cut', () => {
    expect(
      render([
        '# Ti',
        'tle\n- o',
        'ne\n',
        'a `co',
        'de` and **bo',
        'ld**\n',
        '```p',
        'y\nx = 1\n``',
        '`\n',
        'tail',
      ]),
    ).toBe('Title\n• one\na code and bold\n┌─ py\n│ x = 1\n└─\ntail\n');
  });

  it.each([
    ['plain words', 'plain words'],
    ['  indented', '  indented'],
    ['# heading', ''],
    ['- item', ''],
    ['> quote', ''],
  ])('streams %j before its newline only when it is not a block', (input, shown) => {
    let out = '';
    const md = createMarkdownStream((text) => {
      out += text;
    });
    md.write(input);
    expect(out.replace(SGR, '')).toBe(shown);
  });

  it('closes an unfinished `code` or **strong** span at the end of its line', () => {
    expect(render(['a `b\nc **d\ne *f'])).toBe('a b\nc d\ne *f\n');
  });

  it('adds only its own colour codes', () => {
    let out = '';
    const md = createMarkdownStream((text) => {
      out += text;
    });
    md.write('# Title\n`code`\n');
    const sequences = out.split(ESC).slice(1);
    expect(sequences.length).toBeGreaterThan(0);
    expect(sequences.every((s) => /^\[(0|1|2|36)m/.test(s))).toBe(true);
  });
});
