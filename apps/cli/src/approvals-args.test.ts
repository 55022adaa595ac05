import { ApprovalError } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { parseApprovalsArgs } from './approvals-args.js';
import { UsageError } from './usage-error.js';

const ID = 'ap_0bX3kR9d2LqvYw7aP1sT4g';

describe('parseApprovalsArgs', () => {
  it('reads each subcommand with its options', () => {
    expect(
      parseApprovalsArgs(['list', '--status', 'pending', '--session', 'ops', '--json']),
    ).toEqual({
      action: 'list',
      status: 'pending',
      session: 'ops',
      workdir: undefined,
      json: true,
    });
    expect(parseApprovalsArgs(['show', ID])).toEqual({ action: 'show', id: ID, json: false });
    expect(parseApprovalsArgs(['approve', ID, '--workdir', 'repo'])).toEqual({
      action: 'approve',
      id: ID,
      json: false,
      session: undefined,
      workdir: 'repo',
    });
  });

  it('joins the words after the id into the rejection reason, and leaves it out when there is none', () => {
    expect(parseApprovalsArgs(['reject', ID, 'not', 'on', 'main'])).toMatchObject({
      action: 'reject',
      reason: 'not on main',
    });
    expect(parseApprovalsArgs(['reject', ID, '--json'])).toMatchObject({ reason: undefined });
  });

  it('refuses a malformed id as a refused decision (ApprovalError invalid_id), not a usage error', () => {
    for (const id of [
      '../../x',
      'ap_short',
      'ap_0bX3kR9d2Lq/Yw7aP1sT4g',
      `ap_${'a'.repeat(70)}`,
      '',
    ]) {
      const attempt = () => parseApprovalsArgs(['approve', id]);
      expect(attempt, id).toThrow(ApprovalError);
      try {
        attempt();
      } catch (error) {
        expect((error as ApprovalError).refusal).toBe('invalid_id');
        expect((error as Error).message).toContain('is not an approval id');
      }
    }
  });

  it('cuts a very long malformed id short in the message', () => {
    expect(() => parseApprovalsArgs(['show', `../${'x'.repeat(500)}`])).toThrow(
      /^"\.\.\/x{74}\.\.\." is not/,
    );
  });

  it('throws usage errors naming the problem for bad subcommands, flags and values', () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /needs a subcommand: list, show, approve or reject/],
      [['frob'], /unknown approvals subcommand "frob"/],
      [['approve'], /approvals approve needs an approval id/],
      [['approve', ID, 'extra'], /takes one approval id, got also "extra"/],
      [['show', ID, 'extra'], /takes one approval id/],
      [['list', 'x'], /approvals list takes no arguments/],
      [['list', '--status', 'done'], /--status "done" is not a status: expected pending, claimed/],
      [['list', '--session', ''], /--session needs a value/],
      [['approve', ID, '--workdir', ''], /--workdir needs a value/],
      [['approve', ID, '--session', 'a\tb'], /--session: /],
      [['reject', ID, '   '], /the rejection reason is empty/],
      [['approve', ID, '--nope'], /Unknown option '--nope'/],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseApprovalsArgs(argv), argv.join(' ')).toThrow(UsageError);
      expect(() => parseApprovalsArgs(argv), argv.join(' ')).toThrow(message);
    }
  });

  it('answers --help anywhere with the help action', () => {
    expect(parseApprovalsArgs(['--help'])).toEqual({ action: 'help' });
    expect(parseApprovalsArgs(['approve', '-h'])).toEqual({ action: 'help' });
    expect(parseApprovalsArgs(['list', '--help'])).toEqual({ action: 'help' });
  });
});
