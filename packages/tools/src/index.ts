/**
 * @tiny-claw/tools — the workspace tools (`read`, `write`, `edit`, `bash`) behind one path guard,
 * with `bash` in a bubblewrap sandbox where one works.
 *
 * @example
 * import { workspaceTools } from '@tiny-claw/tools';
 * const tools = workspaceTools({ enabled: ['read', 'edit'] }); // in the agent's workdir
 *
 * @module
 */

export { BASH_LIMITS, type BashArgs, type BashToolOptions, createBashTool } from './bash/index.js';
export { killRunningCommands } from './bash/live-commands.js';
export { createEditTool, EDIT_LIMITS, type EditArgs, type EditToolOptions } from './edit/index.js';
// For tools created one by one that must share a ledger; `workspaceTools` shares one itself.
export { ReadLedger } from './file-state/read-ledger.js';
export {
  isInside,
  PATH_LIMITS,
  type PathAccess,
  type PathGuardErrorType,
  type PathGuardResult,
  type ResolveInWorkdirOptions,
  resolveInWorkdir,
} from './path-guard.js';
export { createReadTool, READ_LIMITS, type ReadArgs, type ReadToolOptions } from './read/index.js';
export {
  SANDBOX_MODES,
  type SandboxMode,
  type SandboxOptions,
  type SandboxStatus,
} from './sandbox/sandbox-options.js';
export { sandboxStatus } from './sandbox/sandbox-status.js';
export { type SandboxedLaunch, sandboxedLaunch } from './sandbox/sandboxed-launch.js';
export {
  WORKSPACE_TOOL_NAMES,
  type WorkspaceToolName,
  type WorkspaceToolsOptions,
  workspaceTools,
} from './workspace-tools.js';
export {
  createWriteTool,
  WRITE_LIMITS,
  type WriteArgs,
  type WriteToolOptions,
} from './write/index.js';
