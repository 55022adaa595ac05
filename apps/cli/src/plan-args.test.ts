import { describe, expect, it } from 'vitest';
import { parsePlanArgs } from './plan-args.js';
import { UsageError } from './usage-error.js';

describe('plan arguments', () => {
  it('reads the action, the session, the workdir and --json', () => {
    expect(parsePlanArgs(['show', '--session', 'auth', '--json', '--workdir', 'repo'])).toEqual({
      action: 'show',
      session: 'auth',
      workdir: 'repo',
      json: true,
      help: false,
    });
    expect(parsePlanArgs(['reset'])).toMatchObject({ action: 'reset', session: undefined });
  });

  it('shows help without an action only when asked', () => {
    expect(parsePlanArgs(['--help'])).toMatchObject({ help: true, action: undefined });
    expect(() => parsePlanArgs([])).toThrow('plan needs an action: show or reset');
  });

  it('rejects unknown actions, extra words, unknown flags and an empty session', () => {
    for (const argv of [
      ['delete'],
      ['show', 'now'],
      ['show', '--force'],
      ['show', '--session', ''],
    ]) {
      expect(() => parsePlanArgs(argv)).toThrow(UsageError);
    }
  });
});
