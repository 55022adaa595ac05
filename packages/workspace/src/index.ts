/**
 * @tiny-claw/workspace — what a tiny-claw agent keeps on disk: the project context of a workdir
 * (`AGENTS.md` as project instructions and the skills under `.claw/skills`, selected with `$name` /
 * `/name` or by relevance, whose `allowed-tools` narrows the run's tools) and the file state store
 * (`createFileStore`: sessions, memory, plans, usage, approval requests and paused runs, seen keys,
 * leases and the trace index under a state directory). Core reads and writes no file itself; pass `workspaceContext()` as
 * `projectContext` and `createFileStore(dir)` as `store` to `createAgent`.
 *
 * @example
 * import { createAgent } from '@tiny-claw/core';
 * import { createFileStore, workspaceContext } from '@tiny-claw/workspace';
 * const agent = createAgent({ provider, workdir: '/repo', projectContext: workspaceContext(), store: createFileStore('/home/me/.tiny-claw') });
 *
 * @module
 */

export { AGENTS_MD_FILE, AGENTS_MD_MAX_CHARS } from './agents-md.js';
export { SKILL_FILE, SKILL_MAX_CHARS, SKILLS_DIR } from './skills/skill.js';
export {
  createFileStore,
  type FileStore,
  type FileStoreOptions,
} from './store/file-store.js';
export { usageFilePath } from './store/file-usage-recorder.js';
export { workspaceContext } from './workspace-context.js';
