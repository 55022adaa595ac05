/**
 * @tiny-claw/runtime — settings and `createApplication()`: the one assembly the CLI and the server
 * share.
 *
 * @example
 * import os from 'node:os';
 * import { createApplication, loadSettings } from '@tiny-claw/runtime';
 * const app = await createApplication(loadSettings({ env: process.env, cwd: process.cwd(), homeDir: os.homedir() }));
 * console.log((await app.run({ prompt: 'hello' })).text);
 *
 * @module
 */

// What a front end shows of the rules an "always" answer keeps.
export { describeRule, type PermissionRule } from '@tiny-claw/approval';
export {
  Application,
  type HealthReport,
  type ResumeRequest,
  type RunRequest,
  type SessionPlans,
} from './app/application.js';
export { effectiveApprovalProvider, type FrontEnd } from './app/approval-factory.js';
export { type ApplicationOverrides, createApplication } from './app/create-application.js';
export type { McpReport, McpServerReport } from './app/runtime-mcp.js';
export {
  createRuntimePolicy,
  loadRuntimeRules,
  projectRulesFile,
  type RememberScope,
  type RuntimePolicy,
  userRulesFile,
} from './app/runtime-rules.js';
export {
  listStoredTraces,
  migrateStateStore,
  readStoredTrace,
  type StateBackend,
  type StateHealth,
  type StateMigration,
  stateBackend,
} from './app/state-store-factory.js';
export { createStderrLogger, type StderrLoggerOptions } from './app/stderr-logger.js';
export { RUNTIME_VERSION } from './app/version.js';
export * from './settings/index.js';
