import { describe, expect, it } from 'vitest';
import type { Skill } from './skill.js';
import { MIN_AUTO_SCORE, scoreSkill, selectSkill } from './skill-selection.js';

function skill(name: string, fields: Partial<Skill> = {}): Skill {
  return {
    name,
    description: '',
    whenToUse: '',
    argumentHint: '',
    allowedTools: [],
    disableModelInvocation: false,
    userInvocable: true,
    paths: [],
    triggers: [],
    body: '',
    dir: `/repo/.claw/skills/${name}`,
    truncated: false,
    ...fields,
  };
}

const review = skill('code-review', {
  description: 'Review a diff for bugs and style',
  whenToUse: 'before merging a pull request',
  triggers: ['look over'],
});
const deploy = skill('deploy', { description: 'Ship the service', disableModelInvocation: true });
const hidden = skill('hidden', { description: 'internal', userInvocable: false });
const skills = [review, deploy, hidden];

describe('selectSkill — explicit invocation', () => {
  it('selects `$name do it` with the rest as arguments', () => {
    expect(selectSkill(skills, '$code-review do it')).toEqual({
      skill: review,
      arguments: 'do it',
      explicit: true,
      requestedName: 'code-review',
    });
  });

  it('selects `/name do it` the same way, even for a skill the model may not pick', () => {
    expect(selectSkill(skills, '  /deploy do it  ')).toMatchObject({
      skill: deploy,
      arguments: 'do it',
      explicit: true,
    });
  });

  it('selects a bare `$name` with empty arguments and keeps multi-line arguments', () => {
    expect(selectSkill(skills, '$deploy')).toMatchObject({ skill: deploy, arguments: '' });
    expect(selectSkill(skills, '$deploy line one\nline two\n')).toMatchObject({
      arguments: 'line one\nline two',
    });
  });

  it('selects no skill at all for an unknown explicit name — no fallback to scoring', () => {
    const selection = selectSkill(skills, '/unknown review the diff for bugs, code-review please');
    expect(selection).toEqual({ arguments: '', explicit: false, requestedName: 'unknown' });
  });

  it('does not let a user invoke a skill with user_invocable false', () => {
    expect(selectSkill(skills, '$hidden now').skill).toBeUndefined();
  });

  it('is not triggered by a path or an upper-case name', () => {
    expect(selectSkill(skills, '/tmp/x is broken').requestedName).toBeUndefined();
    expect(selectSkill(skills, '$Deploy now').requestedName).toBeUndefined();
    expect(selectSkill(skills, 'run $deploy now').requestedName).toBeUndefined();
  });
});

describe('selectSkill — automatic scoring', () => {
  it('scores +5 for the name, +4 per trigger and +1 per shared word', () => {
    // name "code-review" (+5); trigger "look over" (+4); shared words look, over, diff, bugs (+4).
    // ("code-review" is one prompt word, while the name contributes "code" and "review".)
    expect(scoreSkill(review, 'Please look over this code-review of the diff: bugs?')).toBe(13);
  });

  it('ignores stopwords and words shorter than three characters', () => {
    // "for", "the", "with", "use" are stopwords; "a" and "of" are too short: nothing is shared.
    const plain = skill('zz', { description: 'for the use with a set of things' });
    expect(scoreSkill(plain, 'for the use with a of')).toBe(0);
    expect(scoreSkill(plain, 'things')).toBe(1);
  });

  it('picks the best skill at or above the minimum score, with the whole prompt as arguments', () => {
    const selection = selectSkill(skills, '  find bugs in this diff  ');
    expect(MIN_AUTO_SCORE).toBe(2);
    expect(selection).toEqual({
      skill: review,
      arguments: 'find bugs in this diff',
      explicit: false,
    });
  });

  it('picks nothing below the minimum score', () => {
    expect(scoreSkill(review, 'fix the bugs')).toBe(1);
    expect(selectSkill(skills, 'fix the bugs').skill).toBeUndefined();
  });

  it('never picks a skill with disable_model_invocation automatically', () => {
    expect(scoreSkill(deploy, 'deploy the service')).toBeGreaterThanOrEqual(MIN_AUTO_SCORE);
    expect(selectSkill(skills, 'deploy the service').skill).toBeUndefined();
  });

  it('breaks ties by name', () => {
    const b = skill('bbb', { description: 'parser tokens' });
    const a = skill('aaa', { description: 'parser tokens' });
    expect(selectSkill([b, a], 'parser tokens').skill?.name).toBe('aaa');
  });

  it('matches non-ASCII prompts only through the name or a trigger', () => {
    const zh = skill('refactor', { description: '重构代码', triggers: ['重构'] });
    expect(scoreSkill(zh, '请帮我重构代码')).toBe(4);
    expect(selectSkill([zh], '请帮我看看代码').skill).toBeUndefined();
  });
});
