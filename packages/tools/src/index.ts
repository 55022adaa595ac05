/**
 * @tiny-claw/tools — workspace tools behind one path guard.
 *
 * @example
 * import { createReadTool, resolveInWorkdir } from '@tiny-claw/tools';
 * const read = createReadTool({ protectedPaths: [stateDir] });
 */
export {
  isInside,
  PATH_LIMITS,
  type PathAccess,
  type PathGuardErrorType,
  type PathGuardResult,
  type ResolveInWorkdirOptions,
  resolveInWorkdir,
  validatePathInput,
} from './path-guard.js';
export {
  allowedToolNames,
  createPolicyMiddleware,
  policyVerdict,
  type ToolPolicyLists,
} from './policy-middleware.js';
export { createReadTool, READ_LIMITS, type ReadArgs, type ReadToolOptions } from './read/index.js';
