import { renderTraceTree } from '@tiny-claw/tracing';
import { describe, expect, it } from 'vitest';
import { cliKey, traceFixture } from './__fixtures__/trace-files.js';
import { painter, printable, printableJson, STYLES, terminalSafe } from './terminal-text.js';

describe('printable', () => {
  it('shows escape sequences, bells, carriage returns and C1 controls as text', () => {
    expect(printable('\x1b[2Jrm -rf /\x07\r\x9b31m')).toBe('\\x1b[2Jrm -rf /\\x07\\r\\x9b31m');
  });

  it('shows bidi overrides and zero-width characters, which can hide what text says', () => {
    expect(printable('a\u202eb\u200bc\u2066')).toBe('a\\u202eb\\u200bc\\u2066');
  });

  it('keeps newlines and tabs only when asked to', () => {
    expect(printable('a\n\tb')).toBe('a\\n\\tb');
    expect(printable('a\n\tb\x1b', { multiline: true })).toBe('a\n\tb\\x1b');
  });

  it('drops a carriage return before a newline in multiline text, and shows a lone one', () => {
    expect(printable('a\r\nb\rc', { multiline: true })).toBe('a\nb\\rc');
  });

  it('leaves ordinary text, accents and emoji alone', () => {
    expect(printable('héllo · 世界 🙂')).toBe('héllo · 世界 🙂');
  });
});

describe('printableJson', () => {
  it('escapes what JSON.stringify leaves raw, and decodes to the same value', () => {
    const value = { text: 'a\u202eb\x9bc\x1bd', tag: '\u{E0041}', list: ['\u2028'] };
    const json = printableJson(value);
    for (const raw of ['\u202e', '\x9b', '\u2028', '\u{E0041}']) expect(json).not.toContain(raw);
    expect(json).toContain('\\u202e');
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('terminalSafe', () => {
  it('lets our own colours, newlines, tabs and CRLF through unchanged', () => {
    const paint = painter(true);
    const text = `${paint('green', 'ok')}\t${paint('boldRed', 'error')}\r\n${paint('dim', 'x')}\n`;
    expect(terminalSafe(text)).toBe(text);
  });

  it('shows the title, clipboard (OSC 52), clear-screen, conceal and C1 sequences as text', () => {
    expect(terminalSafe('\x1b]0;pwned\x07')).toBe('\\x1b]0;pwned\\x07');
    expect(terminalSafe('\x1b]52;c;cm0gLXJm\x07')).toBe('\\x1b]52;c;cm0gLXJm\\x07');
    expect(terminalSafe('\x1b[2J\x1b[H')).toBe('\\x1b[2J\\x1b[H');
    expect(terminalSafe('\x1b[8mhidden\x1b[0m')).toBe('\\x1b[8mhidden\x1b[0m');
    expect(terminalSafe('\x9b2J\x9d0;t\x9c')).toBe('\\x9b2J\\x9d0;t\\x9c');
    expect(terminalSafe('a\rb')).toBe('a\\rb');
  });

  it('shows bidi overrides and invisible characters, astral ones included, as escapes', () => {
    expect(terminalSafe('evil\u202etxt.exe \u2066x\u{E0041}')).toBe(
      'evil\\u202etxt.exe \\u2066x\\u{e0041}',
    );
  });

  it("passes the trace tree's colours: our styling still shows on a terminal", () => {
    const tree = traceFixture('t1', cliKey('/w'), '2025-01-01T00:00:00.000Z');
    const coloured = renderTraceTree(tree, { color: true });
    expect(coloured).toContain('\x1b[');
    expect(terminalSafe(coloured)).toBe(coloured);
  });

  it('paints only when colour is on, with one of the known styles', () => {
    expect(painter(true)('cyan', 'x')).toBe(`\x1b[${STYLES.cyan}mx\x1b[0m`);
    expect(painter(false)('cyan', 'x')).toBe('x');
  });
});
