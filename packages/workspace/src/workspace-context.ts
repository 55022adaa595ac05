import { realpath } from 'node:fs/promises';
import type { LoadedProjectContext, ProjectContext, ProjectContextInput } from '@tiny-claw/core';
import { loadProjectInstructions } from './agents-md.js';
import type { Skill } from './skills/skill.js';
import { discoverSkills } from './skills/skill-discovery.js';
import { renderActiveSkill, renderSkillIndex } from './skills/skill-render.js';
import { selectSkill } from './skills/skill-selection.js';
import { contextWarnings } from './strings.js';

/**
 * The project context of a workdir: `AGENTS.md` and the skills under `.claw/skills`, read afresh at
 * the start of every run. It adds, in this order, the project-instructions system message (from
 * `AGENTS.md`, cut at 32,000 characters), the skill index, and the active skill — picked
 * explicitly with `$name args` / `/name args` or automatically by relevance — whose
 * `allowed-tools` narrows the tools the run may see and call. Files are read only from inside the
 * workdir (their real paths), and a file that cannot be used becomes a warning, never an error.
 *
 * @example
 * import { createAgent } from '@tiny-claw/core';
 * import { workspaceContext } from '@tiny-claw/workspace';
 * const agent = createAgent({ provider, workdir: '/repo', projectContext: workspaceContext() });
 */
export function workspaceContext(): ProjectContext {
  return { load: loadWorkspaceContext };
}

async function loadWorkspaceContext(input: ProjectContextInput): Promise<LoadedProjectContext> {
  const warnings: string[] = [];
  const system: string[] = [];
  let skills: Skill[] = [];
  const realWorkdir = await realpath(input.workdir).catch((error: unknown) => {
    warnings.push(contextWarnings.workdirUnreadable(input.workdir, describe(error)));
    return undefined;
  });
  if (realWorkdir !== undefined) {
    const [project, discovery] = await Promise.all([
      loadProjectInstructions(realWorkdir),
      discoverSkills(realWorkdir),
    ]);
    warnings.push(...project.warnings, ...discovery.warnings);
    if (project.message !== undefined) system.push(project.message);
    skills = discovery.skills;
  }
  if (skills.length > 0) system.push(renderSkillIndex(skills));

  const selection = selectSkill(skills, input.prompt);
  const skill = selection.skill;
  if (skill) system.push(renderActiveSkill(skill, selection));
  else if (selection.requestedName !== undefined) {
    warnings.push(contextWarnings.skillUnknown(selection.requestedName));
  }

  const loaded: LoadedProjectContext = { system, warnings };
  if (skill) {
    loaded.selectedSkill = {
      name: skill.name,
      explicit: selection.explicit,
      arguments: selection.arguments,
      dir: skill.dir,
    };
    if (skill.allowedTools.length > 0) loaded.allowedTools = skill.allowedTools;
  }
  return loaded;
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
