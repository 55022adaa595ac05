import { ConfigurationError, type Tool } from '@tiny-claw/core';
import { WORKSPACE_TOOL_NAMES, workspaceTools } from '@tiny-claw/tools';
import type { Settings } from '../settings/settings-schema.js';

/**
 * The tools `TINY_CLAW_ENABLED_TOOLS` names, bound to the workdir and sharing one read ledger,
 * with the state dir out of their reach. The allow/deny lists are applied by the agent, once.
 *
 * @throws ConfigurationError when a name is not a tool this version provides.
 *
 * @example
 * const tools = createRuntimeTools(settings); // read only, by default
 */
export function createRuntimeTools(settings: Settings): Tool[] {
  const available: readonly string[] = WORKSPACE_TOOL_NAMES;
  const unavailable = settings.enabledTools.filter((name) => !available.includes(name));
  if (unavailable.length > 0) {
    throw new ConfigurationError(
      `TINY_CLAW_ENABLED_TOOLS names ${unavailable.join(', ')}, which this version of tiny-claw does not provide; ` +
        `available tools: ${[...available].sort().join(', ')}.`,
    );
  }
  return workspaceTools({
    workdir: settings.workdir,
    enabled: [...settings.enabledTools],
    protectedPaths: [settings.stateDir],
  });
}
