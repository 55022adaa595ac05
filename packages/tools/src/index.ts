/**
 * @tiny-claw/tools — workspace tools behind one path guard.
 *
 * @example
 * import { createReadTool, resolveInWorkdir } from '@tiny-claw/tools';
 * const read = createReadTool({ protectedPaths: [stateDir] });
 */

export { isSecretEnvVar, scrubEnvironment } from './bash/env-scrub.js';
export { BASH_LIMITS, type BashArgs, type BashToolOptions, createBashTool } from './bash/index.js';
export { createEditTool, EDIT_LIMITS, type EditArgs, type EditToolOptions } from './edit/index.js';
export type { MatchSpan, StrategyName } from './edit/match-types.js';
export {
  type FindMatchOptions,
  findMatch,
  MATCHER_LIMITS,
  type MatchOutcome,
} from './edit/matcher.js';
export {
  type FileFingerprint,
  fingerprintOf,
  ReadLedger,
  type ReadLedgerOptions,
  type ReadLedgerVerdict,
  sameFingerprint,
  withFileLock,
} from './file-state/index.js';
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
export {
  createWriteTool,
  WRITE_LIMITS,
  type WriteArgs,
  type WriteToolOptions,
} from './write/index.js';
