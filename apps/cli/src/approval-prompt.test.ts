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
