import { describe, expect, it } from 'vitest';
import { parseTraceArgs } from './trace-args.js';
import { UsageError } from './usage-error.js';

describe('parseTraceArgs', () => {
  it('reads each subcommand with its own options', () => {
    expect(parseTraceArgs(['list'])).toEqual({ action: 'list', session: undefined, json: false });
    expect(parseTraceArgs(['list', '--session', 'debug login', '--json'])).toEqual({
      action: 'list',
      session: 'debug login',
      json: true,
    });
    expect(parseTraceArgs(['show', 'last', '--json'])).toEqual({
      action: 'show',
      ref: 'last',
      session: undefined,
      json: true,
    });
    expect(parseTraceArgs(['view', '--out', 'a.html', '4f1c_9-A'])).toEqual({
      action: 'view',
      ref: '4f1c_9-A',
      session: undefined,
      out: 'a.html',
    });
    expect(parseTraceArgs(['help'])).toEqual({ action: 'help' });
  });

  it('accepts only ids that cannot leave the traces directory', () => {
    for (const ref of ['../x', 'a/b', 'a.json', '.', 'a b', 'x'.repeat(129)]) {
      expect(() => parseTraceArgs(['show', ref]), ref).toThrow(/is not a trace id/);
    }
  });

  it('names the command in every usage error, so the pointer says tiny-claw trace --help', () => {
    for (const argv of [
      [],
      ['x'],
      ['show'],
      ['view', 'last', '--json'],
      ['list', '--session', ''],
    ]) {
      try {
        parseTraceArgs(argv);
        expect.unreachable(argv.join(' '));
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        expect((error as UsageError).command).toBe('trace');
        expect((error as UsageError).message).not.toMatch(/^TypeError/);
      }
    }
  });
});
