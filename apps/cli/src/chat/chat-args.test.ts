import { describe, expect, it } from 'vitest';
import { UsageError } from '../usage-error.js';
import { parseChatArgs, parseSessionsArgs } from './chat-args.js';

describe('tiny-claw chat arguments', () => {
  it('defaults to the default session in act mode, 20 steps', () => {
    expect(parseChatArgs([])).toEqual({
      session: undefined,
      mode: 'act',
      continue: false,
      workdir: undefined,
      maxSteps: 20,
      help: false,
    });
  });

  it.each([
    [['--session', 'auth'], { session: 'auth' }],
    [['--continue'], { continue: true }],
    [['--mode', 'plan-act'], { mode: 'plan-act' }],
    [['--max-steps', '5'], { maxSteps: 5 }],
    [['--workdir', 'repo'], { workdir: 'repo' }],
    [['-h'], { help: true }],
  ])('%j is read', (argv, expected) => {
    expect(parseChatArgs(argv)).toMatchObject(expected);
  });

  it.each([
    [['--mode', 'yolo'], /--mode "yolo" is not supported: expected act, think, plan or plan-act/],
    [['--session', 'a', '--continue'], /--session and --continue both choose the session/],
    [['--session', ''], /--session needs a non-empty name/],
    [['--max-steps', '0'], /--max-steps "0" is not valid/],
    [['--max-steps', 'lots'], /--max-steps "lots" is not valid/],
    [['hello'], /chat takes no prompt .*'tiny-claw run "<prompt>"'/],
    [['--frob'], /Unknown option '--frob'/],
  ])('%j is a usage error that says what to do', (argv, message) => {
    expect(() => parseChatArgs(argv)).toThrow(UsageError);
    expect(() => parseChatArgs(argv)).toThrow(message);
  });
});

describe('tiny-claw sessions arguments', () => {
  it.each([
    [[], { json: false, workdir: undefined, help: false }],
    [['--json', '--workdir', 'x'], { json: true, workdir: 'x', help: false }],
  ])('%j is read', (argv, expected) => {
    expect(parseSessionsArgs(argv)).toEqual(expected);
  });

  it.each([
    [['extra'], /sessions takes no prompt or other words/],
    [['--workdir', ''], /--workdir needs a directory/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseSessionsArgs(argv)).toThrow(message);
  });
});
