/**
 * @tiny-claw/subagent — the Explorer subagent: a read-only child agent with its own context and
 * session, exposed to the main agent as the `explore` tool.
 *
 * @example
 * import { createAgent } from '@tiny-claw/core';
 * import { workspaceTools } from '@tiny-claw/tools';
 * import { exploreTool } from '@tiny-claw/subagent';
 * const agent = createAgent({ provider, tools: [...workspaceTools({ workdir }), exploreTool()] });
 *
 * @module
 */
export { childSession } from './child-session.js';
export { type ExploreToolOptions, exploreTool } from './explore-tool.js';
export { capReport, formatReport } from './explorer-report.js';
export { EXPLORER_LIMITS } from './limits.js';
export { type ExplorerOutcome, SubagentRunner } from './subagent-runner.js';
