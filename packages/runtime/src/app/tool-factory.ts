import { ConfigurationError, type Tool } from '@tiny-claw/core';
import { exploreTool } from '@tiny-claw/subagent';
import {
  type SandboxOptions,
  WORKSPACE_TOOL_NAMES,
  type WorkspaceToolName,
  workspaceTools,
} from '@tiny-claw/tools';
import type { Settings } from '../settings/settings-schema.js';

/**
 * The bash sandbox the settings ask for: `TINY_CLAW_SANDBOX`, `TINY_CLAW_SANDBOX_NETWORK` and
 * `TINY_CLAW_SANDBOX_HIDE` (absolute paths, beyond the built-in credential locations).
 *
 * @example
 * runtimeSandbox(settings); // { mode: 'auto', network: false, hide: [] }
 */
export function runtimeSandbox(settings: Settings): SandboxOptions {
  return {
    mode: settings.sandbox,
    network: settings.sandboxNetwork === 'on',
    hide: [...settings.sandboxHide],
  };
}

/**
 * The tools `TINY_CLAW_ENABLED_TOOLS` names, bound to the workdir and sharing one read ledger,
 * with the state dir out of their reach (and hidden from sandboxed commands), tiny-claw's own
 * settings and trust files neither readable nor writable by any of them (nor visible to sandboxed
 * commands), bash in the sandbox the settings ask for. The user's config folder is protected like
 * the state dir as well, so that a command cannot create it inside the workdir and plant settings
 * there. The allow/deny lists are applied by the agent, once.
 *
 * @throws ConfigurationError when a name is not a tool this version provides, or when
 * `TINY_CLAW_SANDBOX=bwrap` and bash is enabled but bubblewrap cannot work here.
 *
 * @example
 * const tools = createRuntimeTools(settings); // read only, by default
 */
export function createRuntimeTools(settings: Settings): Tool[] {
  const available: readonly string[] = [...WORKSPACE_TOOL_NAMES, EXPLORE];
  const unavailable = settings.enabledTools.filter((name) => !available.includes(name));
  if (unavailable.length > 0) {
    throw new ConfigurationError(
      `TINY_CLAW_ENABLED_TOOLS names ${unavailable.join(', ')}, which this version of tiny-claw does not provide; ` +
        `available tools: ${[...available].sort().join(', ')}.`,
    );
  }
  const explore = settings.enabledTools.includes(EXPLORE);
  const workspace = settings.enabledTools.filter((name) => name !== EXPLORE);
  // The explorer reads even when the model is not given read itself; the allow and deny lists
  // still apply to it (the agent drops a read they refuse). It shares the read ledger.
  const built = workspaceTools({
    workdir: settings.workdir,
    enabled: explore && !workspace.includes('read') ? [...workspace, 'read'] : workspace,
    protectedPaths: [settings.stateDir, settings.configDir],
    settingsPaths: settings.settingsPaths,
    sandbox: runtimeSandbox(settings),
    // No process warning: `health` and the run banner report a sandbox that is off, and why.
    onSandboxFallback: () => {},
  });
  const tools = built.filter((tool) => workspace.includes(tool.name as WorkspaceToolName));
  if (!explore) return tools;
  const readOnly = built.filter((tool) => tool.readOnly === true);
  return [...tools, exploreTool({ tools: readOnly })];
}

/** The explorer subagent's tool name in settings. */
const EXPLORE = 'explore';
