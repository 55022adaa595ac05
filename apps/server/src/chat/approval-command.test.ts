import { describe, expect, it } from 'vitest';
import { messageText } from '../feishu/message-event.js';
import { MAX_REASON_CHARS, parseApprovalCommand } from './approval-command.js';

const ID = 'ap_0bX3kR9d2LqvYw7a';
/** A message as typed, through the same clean-up the server applies. */
const typed = (text: string, mentions: string[] = []) =>
  parseApprovalCommand(messageText(JSON.stringify({ text }), mentions) ?? '');

describe('approval commands in chat', () => {
  it('reads /approve and /reject with a reason, in any case and spacing', () => {
    expect(typed(`/approve ${ID}`)).toEqual({
      kind: 'decision',
      decision: 'approve',
      approvalId: ID,
    });
    expect(typed(`/APPROVE ${ID}`)).toMatchObject({ decision: 'approve', approvalId: ID });
    expect(typed(`/approve  ${ID}  `)).toMatchObject({ decision: 'approve', approvalId: ID });
    expect(typed(`/reject ${ID} not on a Friday`)).toEqual({
      kind: 'decision',
      decision: 'reject',
      approvalId: ID,
      reason: 'not on a Friday',
    });
  });

  it('normalises a mention placeholder, a full-width slash and invisible characters', () => {
    expect(typed(`@_user_1 /approve ${ID}`, ['@_user_1'])).toMatchObject({ approvalId: ID });
    expect(typed(`／approve ${ID}`)).toMatchObject({ decision: 'approve', approvalId: ID });
    expect(typed(`/approve ${ID}\u200b`)).toMatchObject({ approvalId: ID });
  });

  it('refuses ids that are not plain ids, and never treats such a command as a prompt', () => {
    for (const text of [
      `/approve ${ID}; /approve ap_other_id_1`,
      '/approve ../../etc/passwd',
      '/approve %2e%2e%2f',
      '/approve',
      '/reject short',
    ]) {
      expect(typed(text)).toMatchObject({ kind: 'malformed' });
    }
  });

  it('cuts a long rejection reason to 500 characters', () => {
    const command = typed(`/reject ${ID} ${'x'.repeat(10_000)}`);
    expect(command).toMatchObject({ kind: 'decision', decision: 'reject' });
    expect(command?.kind === 'decision' && command.reason?.length).toBe(MAX_REASON_CHARS);
  });

  it('leaves ordinary text to the model', () => {
    expect(typed('please approve the plan')).toBeUndefined();
    expect(typed('/approved it already')).toBeUndefined();
  });
});

describe('message text', () => {
  it('strips every mention placeholder and reads only text content', () => {
    expect(messageText('{"text":"@_user_1 hi @_user_2"}', ['@_user_1'])).toBe('hi');
    expect(messageText('{"text":"@_all deploy"}', [])).toBe('deploy');
    expect(messageText('{"text":123}', [])).toBeUndefined();
    expect(messageText('not json', [])).toBeUndefined();
    expect(messageText(undefined, [])).toBeUndefined();
  });
});
