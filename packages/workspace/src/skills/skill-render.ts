import { activeSkillText, skillIndexHeading, skillTruncatedNotice } from '../strings.js';
import type { Skill } from './skill.js';

/** Replaced by the arguments of the selection. */
export const ARGUMENTS_VARIABLE = '$ARGUMENTS';
/** Replaced by the absolute skill directory. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: the literal placeholder skills write, not a template.
export const SKILL_DIR_VARIABLE = '${TINY_CLAW_SKILL_DIR}';

/**
 * The skill index system message: the rules for using skills, then one line per skill,
 * `- <name>[ - <description>][ args=<argument-hint>]`.
 *
 * @example
 * renderSkillIndex(skills); // 'Available project skills from .claw/skills.\n…\n\n- review - Review a diff args=<path>'
 */
export function renderSkillIndex(skills: readonly Skill[]): string {
  const lines = skills.map((skill) => {
    const description = skill.description ? ` - ${skill.description}` : '';
    const hint = skill.argumentHint ? ` args=${skill.argumentHint}` : '';
    return `- ${skill.name}${description}${hint}`;
  });
  return `${skillIndexHeading}\n\n${lines.join('\n')}`;
}

/**
 * The active-skill system message: how it was selected, its declared tools and paths, a reminder
 * that it is guidance only, then its body with substitutions and the truncation notice if cut.
 *
 * @example
 * renderActiveSkill(skill, { explicit: true, arguments: 'src/a.ts' });
 */
export function renderActiveSkill(
  skill: Skill,
  selection: { explicit: boolean; arguments: string },
): string {
  const body = applySkillSubstitutions(skill.body, {
    arguments: selection.arguments,
    skillDir: skill.dir,
  });
  const notice = skill.truncated ? `\n\n${skillTruncatedNotice}` : '';
  return [
    activeSkillText.heading(selection.explicit, skill.name),
    activeSkillText.description(skill.description),
    activeSkillText.allowedTools(skill.allowedTools),
    activeSkillText.paths(skill.paths),
    activeSkillText.guidanceOnly,
    '',
    `${body}${notice}`,
  ].join('\n');
}

/**
 * Replace `$ARGUMENTS` with the selection's arguments and `${TINY_CLAW_SKILL_DIR}` with the
 * absolute skill directory. Replacement text is inserted literally (no `$&`-style patterns).
 *
 * @example
 * applySkillSubstitutions('run $ARGUMENTS', { arguments: 'tests', skillDir: '/r/.claw/skills/t' }); // 'run tests'
 */
export function applySkillSubstitutions(
  body: string,
  values: { arguments: string; skillDir: string },
): string {
  // Substituted in this order, as the original: arguments first, then the directory.
  return body
    .split(ARGUMENTS_VARIABLE)
    .join(values.arguments)
    .split(SKILL_DIR_VARIABLE)
    .join(values.skillDir);
}
