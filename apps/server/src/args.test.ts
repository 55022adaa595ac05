import { describe, expect, it } from 'vitest';
import { parseServerArgs, UsageError } from './args.js';

describe('server flags', () => {
  it('reads every flag, leaving the rest to settings', () => {
    expect(
      parseServerArgs([
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--feishu-path',
        '/hooks/feishu',
        '--mode',
        'plan-act',
        '--max-steps',
        '40',
        '--env-file',
        'team.env',
      ]),
    ).toEqual({
      action: 'serve',
      host: '127.0.0.1',
      port: 0,
      feishuPath: '/hooks/feishu',
      mode: 'plan-act',
      maxSteps: 40,
      envFile: 'team.env',
    });
    expect(parseServerArgs([])).toEqual({ action: 'serve' });
    expect(parseServerArgs(['-h'])).toEqual({ action: 'help' });
  });

  it('refuses bad values with what to use instead', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--port', '70000'], /--port must be an integer from 0 to 65535/],
      [['--port', '-1'], /--port/],
      [['--max-steps', '0'], /--max-steps must be an integer from 1 to 1000/],
      [['--feishu-path', 'api/events'], /--feishu-path must be a URL path starting with "\/"/],
      [['--mode', 'fast'], /--mode must be one of act, think, plan, plan-act/],
      [['--host', ''], /--host needs a value/],
      [['stray'], /Unexpected argument|positional/i],
      [['--nope'], /Unknown option/i],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseServerArgs(argv)).toThrow(UsageError);
      expect(() => parseServerArgs(argv)).toThrow(message);
    }
  });
});
