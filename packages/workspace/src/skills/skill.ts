import {
  frontmatterBool,
  frontmatterList,
  frontmatterString,
  parseFrontmatter,
} from './frontmatter.js';

/** Where project skills live, relative to the workdir. */
export const SKILLS_DIR = '.claw/skills';
/** The file that makes a skills subdirectory a skill. */
export const SKILL_FILE = 'SKILL.md';
/** A SKILL.md is cut to this many characters before its frontmatter is parsed. */
export const SKILL_MAX_CHARS = 16_000;

const SKILL_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * A project skill read from `<workdir>/.claw/skills/<dir>/SKILL.md`.
 *
 * @example
 * const skill: Skill = (await discoverSkills('/repo')).skills[0];
 */
export interface Skill {
  name: string;
  description: string;
  whenToUse: string;
  argumentHint: string;
  /** Tool names the skill narrows the run to, lower-cased; empty = no narrowing. */
  allowedTools: readonly string[];
  /** When true the skill is never picked automatically, only by `$name` / `/name`. */
  disableModelInvocation: boolean;
  /** When false `$name` / `/name` does not select it. */
  userInvocable: boolean;
  paths: readonly string[];
  triggers: readonly string[];
  /** The document after the frontmatter, trimmed. */
  body: string;
  /** Absolute skill directory (the value of `${TINY_CLAW_SKILL_DIR}`). */
  dir: string;
  /** True when SKILL.md was longer than {@link SKILL_MAX_CHARS}. */
  truncated: boolean;
}

/** Why a document did not become a skill, or what was odd about one that did. */
export type SkillIssue =
  | { kind: 'invalid_name'; name: string }
  | { kind: 'name_fallback'; name: string }
  | { kind: 'unclosed_frontmatter' }
  /** The frontmatter is not usable YAML; the document is skipped. */
  | { kind: 'invalid_frontmatter'; line: number; reason: string };

/**
 * True for a valid skill name: lower-case ASCII letters, digits and `-`, starting with a letter.
 *
 * @example
 * isSkillName('code-review'); // true
 * isSkillName('Code_Review'); // false
 */
export function isSkillName(value: string): boolean {
  return SKILL_NAME.test(value);
}

/**
 * Turn the (already truncated) text of a SKILL.md into a {@link Skill}. The name is the frontmatter
 * `name` when valid, else the directory name when valid, else the document is not a skill. A
 * frontmatter block that is not usable YAML makes it no skill either. Fields accept `_` and `-`
 * spellings. Async because the YAML parser is loaded on first use.
 *
 * @example
 * const { skill } = await skillFromText('---\nname: review\n---\nSteps', { dirName: 'review', dir: '/repo/.claw/skills/review', truncated: false });
 */
export async function skillFromText(
  text: string,
  source: { dirName: string; dir: string; truncated: boolean },
): Promise<{ skill?: Skill; issues: SkillIssue[] }> {
  const parsed = await parseFrontmatter(text);
  if (parsed.error) {
    return { issues: [{ kind: 'invalid_frontmatter', ...parsed.error }] };
  }
  const data = parsed.data;
  const issues: SkillIssue[] = [];
  if (parsed.unclosed) issues.push({ kind: 'unclosed_frontmatter' });

  const declared = frontmatterString(data, 'name');
  let name = declared;
  if (!isSkillName(declared)) {
    if (!isSkillName(source.dirName)) {
      issues.push({ kind: 'invalid_name', name: declared });
      return { issues };
    }
    if (declared !== '') issues.push({ kind: 'name_fallback', name: declared });
    name = source.dirName;
  }
  const allowedTools = frontmatterList(data, 'allowed_tools', 'allowed-tools').map((tool) =>
    tool.toLowerCase(),
  );
  return {
    skill: {
      name,
      description: frontmatterString(data, 'description'),
      whenToUse: frontmatterString(data, 'when_to_use', 'when-to-use'),
      argumentHint: frontmatterString(data, 'argument_hint', 'argument-hint'),
      allowedTools: [...new Set(allowedTools)],
      disableModelInvocation: frontmatterBool(
        data,
        false,
        'disable_model_invocation',
        'disable-model-invocation',
      ),
      userInvocable: frontmatterBool(data, true, 'user_invocable', 'user-invocable'),
      paths: frontmatterList(data, 'paths'),
      triggers: frontmatterList(data, 'triggers'),
      body: parsed.body.trim(),
      dir: source.dir,
      truncated: source.truncated,
    },
    issues,
  };
}
