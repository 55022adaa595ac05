import type { Skill } from './skill.js';

/** The lowest score that selects a skill automatically. */
export const MIN_AUTO_SCORE = 2;

/** Result of {@link selectSkill}. */
export interface SkillSelection {
  skill?: Skill;
  /** `$ARGUMENTS`: the text after an explicit `$name`, or the whole prompt for an automatic pick. */
  arguments: string;
  explicit: boolean;
  /** Set when the prompt was an explicit invocation, whether or not a skill answered it. */
  requestedName?: string;
}

// The whole prompt must be the invocation: `$review src/a.ts`, `/review`, not `/tmp/x is broken`.
const EXPLICIT = /^\s*[$/]([a-z][a-z0-9-]*)(?:\s+([\s\S]*))?\s*$/;
const TOKEN = /[a-z0-9][a-z0-9-]{1,}/g;
const STOPWORDS = new Set([
  'and',
  'for',
  'the',
  'this',
  'that',
  'with',
  'from',
  'into',
  'please',
  'need',
  'want',
  'use',
  'using',
]);

/**
 * Pick the skill for a prompt. An explicit `$name args` / `/name args` prompt selects the
 * user-invocable skill of that name — or no skill at all when there is none (never a fallback to
 * automatic selection). Otherwise the best-scoring skill without `disable_model_invocation` is
 * picked when its score reaches {@link MIN_AUTO_SCORE}; ties go to the smaller name.
 *
 * @example
 * selectSkill(skills, '$review src/a.ts'); // { skill: review, arguments: 'src/a.ts', explicit: true, … }
 */
export function selectSkill(
  skills: readonly Skill[],
  prompt: string,
  minScore = MIN_AUTO_SCORE,
): SkillSelection {
  const explicit = EXPLICIT.exec(prompt);
  if (explicit) {
    const requestedName = explicit[1] as string;
    const args = (explicit[2] ?? '').trim();
    const skill = skills.find((s) => s.name === requestedName && s.userInvocable);
    return skill
      ? { skill, arguments: args, explicit: true, requestedName }
      : { arguments: '', explicit: false, requestedName };
  }

  let best: { skill: Skill; score: number } | undefined;
  for (const skill of skills) {
    if (skill.disableModelInvocation) continue;
    const score = scoreSkill(skill, prompt);
    if (score < minScore) continue;
    if (!best || score > best.score || (score === best.score && skill.name < best.skill.name)) {
      best = { skill, score };
    }
  }
  return best
    ? { skill: best.skill, arguments: prompt.trim(), explicit: false }
    : { arguments: '', explicit: false };
}

/**
 * How well a prompt matches a skill: +5 when the skill name occurs in the lower-cased prompt, +4
 * per trigger occurring in it, +1 per word shared between the prompt and the skill's name,
 * description, when_to_use and triggers (ASCII words of 3+ characters, stopwords excluded).
 *
 * @example
 * scoreSkill(reviewSkill, 'please review the parser'); // 5 (name) + 1 (review) = 6
 */
export function scoreSkill(skill: Skill, prompt: string): number {
  const text = prompt.toLowerCase();
  let score = text.includes(skill.name) ? 5 : 0;
  for (const trigger of skill.triggers) {
    const needle = trigger.toLowerCase().trim();
    if (needle !== '' && text.includes(needle)) score += 4;
  }
  const skillWords = words(
    [
      skill.name.replaceAll('-', ' '),
      skill.description,
      skill.whenToUse,
      skill.triggers.join(' '),
    ].join(' '),
  );
  for (const word of words(prompt)) if (skillWords.has(word)) score += 1;
  return score;
}

function words(text: string): Set<string> {
  const found = new Set<string>();
  for (const [token] of text.toLowerCase().matchAll(TOKEN)) {
    if (token.length >= 3 && !STOPWORDS.has(token)) found.add(token);
  }
  return found;
}
