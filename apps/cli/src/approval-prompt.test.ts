import { describe, expect, it } from 'vitest';
import { askDecision, parseDecision } from './approval-prompt.js';

describe('parseDecision', () => {
  it('reads y/yes as approve and n/no as reject, in any case, with or without a reason', () => {
    expect(parseDecision('y')).toEqual({ decision: 'approve' });
    expect(parseDecision(' YES ')).toEqual({ decision: 'approve' });
    expect(parseDecision('n')).toEqual({ decision: 'reject' });
    expect(parseDecision('No')).toEqual({ decision: 'reject' });
    expect(parseDecision('n  not on a friday ')).toEqual({
      decision: 'reject',
      reason: 'not on a friday',
    });
  });

  it('has no default: an empty line or anything else is not an answer', () => {
    for (const answer of ['', '   ', 'maybe', 'yep', 'nope', 'ok', 'y please'])
      expect(parseDecision(answer), answer).toBeUndefined();
  });
});

describe('askDecision', () => {
  const asker = (answers: Array<string | undefined>) => {
    const asked: string[] = [];
    return {
      asked,
      ask: async (question: string) => {
        asked.push(question);
        return answers.shift();
      },
    };
  };

  it('asks once more after an answer it does not understand, explaining what it expects', async () => {
    const { ask, asked } = asker(['maybe', 'y']);
    let said = '';
    expect(await askDecision(ask, (text) => (said += text))).toEqual({ decision: 'approve' });
    expect(asked).toHaveLength(2);
    expect(said).toContain("answer 'y' to approve");
  });

  it('gives up after two answers it does not understand', async () => {
    const { ask, asked } = asker(['maybe', 'perhaps', 'y']);
    expect(await askDecision(ask, () => {})).toBeUndefined();
    expect(asked).toHaveLength(2);
  });

  it('treats no answer (Ctrl-C, Ctrl-D, end of input) as no decision at once', async () => {
    const { ask, asked } = asker([undefined, 'y']);
    expect(await askDecision(ask, () => {})).toBeUndefined();
    expect(asked).toHaveLength(1);
  });
});

describe('the "always" answers', () => {
  const both = { session: true, project: true };
  it.each([
    ['a', both, { decision: 'approve', always: 'session' }],
    ['Always', both, { decision: 'approve', always: 'session' }],
    ['p', both, { decision: 'approve', always: 'project' }],
    [' PROJECT ', both, { decision: 'approve', always: 'project' }],
    ['a', { session: false, project: true }, undefined],
    ['p', { session: true, project: false }, undefined],
    ['a', undefined, undefined],
    ['p', undefined, undefined],
    ['always please', both, undefined],
    ['y', both, { decision: 'approve' }],
    ['n no', both, { decision: 'reject', reason: 'no' }],
  ] as const)('%j with offers %j reads as %j', (answer, offers, expected) => {
    expect(parseDecision(answer, offers)).toEqual(expected);
  });

  it('the explanation after a wrong answer names only the answers offered', async () => {
    const answers = ['maybe', 'a'];
    let said = '';
    const decision = await askDecision(
      async () => answers.shift(),
      (text) => (said += text),
      { session: true, project: false },
    );
    expect(decision).toEqual({ decision: 'approve', always: 'session' });
    expect(said).toContain("'a' to approve and not ask again in this session");
    expect(said).not.toContain("'p'");
  });
});
