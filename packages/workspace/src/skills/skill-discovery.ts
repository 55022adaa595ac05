import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  isInsideDir,
  readWorkdirText,
  skippedWarning,
  type WorkdirTextResult,
} from '../read-workdir-text.js';
import { contextWarnings } from '../strings.js';
import {
  SKILL_FILE,
  SKILL_MAX_CHARS,
  SKILLS_DIR,
  type Skill,
  type SkillIssue,
  skillFromText,
} from './skill.js';

/** The skills of a workdir and what was skipped on the way (for logs). */
export interface SkillDiscovery {
  /** In directory-name order; the first of two skills with one name wins. */
  skills: Skill[];
  warnings: string[];
}

/**
 * Find the project skills: every direct subdirectory of `<workdir>/.claw/skills` (sorted by name)
 * holding a `SKILL.md`. Files whose real path leaves the workdir, non-UTF-8 or unreadable files,
 * documents whose frontmatter is not usable YAML and documents without a valid name are skipped
 * with a warning; this never throws.
 *
 * @example
 * const { skills, warnings } = await discoverSkills('/repo');
 */
export async function discoverSkills(
  workdir: string,
  options: { maxChars?: number } = {},
): Promise<SkillDiscovery> {
  const warnings: string[] = [];
  let realRoot: string;
  try {
    realRoot = await realpath(workdir);
  } catch (error) {
    warnings.push(contextWarnings.workdirUnreadable(workdir, describe(error)));
    return { skills: [], warnings };
  }
  const dirNames = await listSkillDirs(realRoot, warnings);
  if (dirNames === undefined) return { skills: [], warnings };

  const maxChars = options.maxChars ?? SKILL_MAX_CHARS;
  const skillsRoot = join(realRoot, ...SKILLS_DIR.split('/'));
  // Reads run concurrently; the order (and so "first wins") comes from the sorted names.
  const reads = await Promise.all(
    dirNames.map((name) => readWorkdirText(realRoot, join(skillsRoot, name, SKILL_FILE), maxChars)),
  );
  // Parsed concurrently as well; a skill with frontmatter loads the YAML parser once for all.
  const parsed = await Promise.all(
    dirNames.map((dirName, index) => {
      const read = reads[index] as WorkdirTextResult;
      if (read.status !== 'ok') return undefined;
      return skillFromText(read.text, {
        dirName,
        dir: join(skillsRoot, dirName),
        truncated: read.truncated,
      });
    }),
  );
  const skills: Skill[] = [];
  const owners = new Map<string, string>();
  dirNames.forEach((dirName, index) => {
    const file = `${SKILLS_DIR}/${dirName}/${SKILL_FILE}`;
    const read = reads[index] as WorkdirTextResult;
    if (read.status === 'missing') return;
    if (read.status === 'skipped') {
      warnings.push(skippedWarning(file, read));
      return;
    }
    if (read.truncated) warnings.push(contextWarnings.truncated(file, maxChars));
    const { skill, issues } = parsed[index] as Awaited<ReturnType<typeof skillFromText>>;
    for (const issue of issues) warnings.push(issueWarning(file, dirName, issue));
    if (!skill) return;
    const owner = owners.get(skill.name);
    if (owner !== undefined) {
      warnings.push(contextWarnings.skillDuplicate(file, skill.name, owner));
      return;
    }
    owners.set(skill.name, file);
    skills.push(skill);
  });
  return { skills, warnings };
}

/** Sorted names of the skill directories, `[]` when there are none, undefined after a warning. */
async function listSkillDirs(realRoot: string, warnings: string[]): Promise<string[] | undefined> {
  let realSkills: string;
  try {
    realSkills = await realpath(join(realRoot, ...SKILLS_DIR.split('/')));
  } catch (error) {
    if (isMissing(error)) return [];
    warnings.push(contextWarnings.skillsDirUnreadable(SKILLS_DIR, describe(error)));
    return undefined;
  }
  if (!isInsideDir(realRoot, realSkills)) {
    warnings.push(contextWarnings.skillsDirOutside(SKILLS_DIR));
    return undefined;
  }
  let entries: Dirent[];
  try {
    entries = await readdir(realSkills, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return [];
    warnings.push(contextWarnings.skillsDirUnreadable(SKILLS_DIR, describe(error)));
    return undefined;
  }
  const names: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) names.push(entry.name);
    // A symlinked skill directory counts; its SKILL.md is still checked against the workdir.
    else if (entry.isSymbolicLink() && (await isDirectory(join(realSkills, entry.name)))) {
      names.push(entry.name);
    }
  }
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function issueWarning(file: string, dirName: string, issue: SkillIssue): string {
  switch (issue.kind) {
    case 'invalid_name':
      return contextWarnings.skillInvalidName(file, issue.name, dirName);
    case 'name_fallback':
      return contextWarnings.skillNameFallback(file, issue.name, dirName);
    case 'unclosed_frontmatter':
      return contextWarnings.frontmatterUnclosed(file);
    case 'invalid_frontmatter':
      return contextWarnings.skillInvalidFrontmatter(file, issue.line, issue.reason);
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
