import type { LogFields } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { createStderrLogger } from './stderr-logger.js';

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function capture(format: 'text' | 'json', level: 'debug' | 'info' | 'warn' | 'error' = 'debug') {
  const lines: string[] = [];
  const logger = createStderrLogger(level, { format, write: (line) => lines.push(line) });
  return { logger, lines };
}

/** A text line without its time: `<LEVEL> <message> key=value…`. */
const withoutTime = (line: string) => line.replace(/^\S+ /, '').replace(/\n$/, '');

describe('text log lines', () => {
  it.each<[string, string, LogFields | undefined, string]>([
    ['a plain message', 'server started', undefined, 'INFO server started'],
    [
      'fields as key=value in order',
      'run finished',
      { run_id: 'run_1', steps: 3, cost_usd: 0.0021, ok: true, detail: null },
      'INFO run finished run_id=run_1 steps=3 cost_usd=0.0021 ok=true detail=null',
    ],
    [
      'undefined fields left out',
      'run finished',
      { a: undefined, b: 'x' },
      'INFO run finished b=x',
    ],
    [
      'values with spaces, quotes, = or backslashes quoted as JSON',
      'm',
      { a: 'two words', b: 'say "hi"', c: 'k=v', d: 'C:\\x', e: '' },
      'INFO m a="two words" b="say \\"hi\\"" c="k=v" d="C:\\\\x" e=""',
    ],
    ['a value spanning lines escaped', 'm', { a: 'one\ntwo' }, 'INFO m a="one\\ntwo"'],
    [
      'a message spanning lines escaped',
      'first\nsecond\r\nthird',
      undefined,
      'INFO first\\nsecond\\r\\nthird',
    ],
    [
      'escape sequences made visible',
      'red \u001b[31m text\u2028',
      undefined,
      'INFO red \\u001b[31m text\\u2028',
    ],
  ])('writes %s', (_rule, message, fields, expected) => {
    const { logger, lines } = capture('text');
    logger.info(message, fields);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.endsWith('\n')).toBe(true);
    expect(lines[0]?.slice(0, -1)).not.toMatch(/[\n\r]/);
    expect(lines[0]?.split(' ')[0]).toMatch(TIME);
    expect(withoutTime(lines[0] as string)).toBe(expected);
  });
});

describe('json log lines', () => {
  it.each<[string, string, LogFields | undefined, Record<string, unknown>]>([
    ['a plain message', 'server started', undefined, { level: 'info', msg: 'server started' }],
    [
      'fields as members',
      'run finished',
      { run_id: 'run_1', steps: 3, cost_usd: 0.0021, ok: true, detail: null },
      {
        level: 'info',
        msg: 'run finished',
        run_id: 'run_1',
        steps: 3,
        cost_usd: 0.0021,
        ok: true,
        detail: null,
      },
    ],
    [
      'undefined fields left out',
      'm',
      { a: undefined, b: 'x' },
      { level: 'info', msg: 'm', b: 'x' },
    ],
    [
      'a message spanning lines kept whole',
      'first\nsecond\u2028third',
      undefined,
      { level: 'info', msg: 'first\nsecond\u2028third' },
    ],
    [
      'a field named like a built-in member renamed',
      'm',
      { msg: 'other', level: 'x', time: 1 },
      { level: 'info', msg: 'm', field_msg: 'other', field_level: 'x', field_time: 1 },
    ],
  ])('writes %s on one line', (_rule, message, fields, expected) => {
    const { logger, lines } = capture('json');
    logger.info(message, fields);
    expect(lines).toHaveLength(1);
    const body = (lines[0] as string).slice(0, -1);
    expect(lines[0]?.endsWith('\n')).toBe(true);
    expect(body).not.toMatch(/[\n\r\u2028\u2029]/);
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const { time, ...rest } = parsed;
    expect(time).toMatch(TIME);
    expect(rest).toEqual(expected);
    expect(Object.keys(parsed).slice(0, 3)).toEqual(['time', 'level', 'msg']);
  });
});

describe('levels', () => {
  it.each([
    ['debug', ['debug', 'info', 'warn', 'error']],
    ['info', ['info', 'warn', 'error']],
    ['warn', ['warn', 'error']],
    ['error', ['error']],
  ] as const)('at %s writes only lines at or above it', (level, written) => {
    const { logger, lines } = capture('json', level);
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(lines.map((line) => (JSON.parse(line) as { level: string }).level)).toEqual(written);
  });

  it('writes text by default, to the write function given as the second argument', () => {
    const lines: string[] = [];
    createStderrLogger('warn', (line) => lines.push(line)).warn('careful', { n: 1 });
    expect(lines.map(withoutTime)).toEqual(['WARN careful n=1']);
  });
});
