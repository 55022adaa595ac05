/**
 * @tiny-claw/workspace — the project context of a workdir for a tiny-claw agent: `AGENTS.md` as
 * project instructions and the skills under `.claw/skills`, selected with `$name` / `/name` or by
 * relevance, whose `allowed-tools` narrows the run's tools. Core reads no project file itself; pass
 * `workspaceContext()` as `projectContext` to `createAgent`.
 *
 * @example
 * import { createAgent } from '@tiny-claw/core';
 * import { workspaceContext } from '@tiny-claw/workspace';
 * const agent = createAgent({ provider, workdir: '/repo', projectContext: workspaceContext() });
 *
 * @module
 */

export { AGENTS_MD_FILE, AGENTS_MD_MAX_CHARS } from './agents-md.js';
export { SKILL_FILE, SKILL_MAX_CHARS, SKILLS_DIR } from './skills/skill.js';
export { workspaceContext } from './workspace-context.js';
