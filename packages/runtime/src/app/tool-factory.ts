import { ConfigurationError, type Tool, ToolRegistry } from '@tiny-claw/core';
import {
  allowedToolNames,
  createBashTool,
  createEditTool,
  createPolicyMiddleware,
  createReadTool,
  createWriteTool,
  ReadLedger,
} from '@tiny-claw/tools';
import type { Settings } from '../settings/settings-schema.js';

/** What the tool builders share: protected paths and one read ledger for read, edit and write. */
interface ToolEnvironment {
  settings: Settings;
  ledger: ReadLedger;
}

/** Tools this version can build, by the name used in `TINY_CLAW_ENABLED_TOOLS`. */
const TOOL_BUILDERS: Readonly<Record<string, (env: ToolEnvironment) => Tool>> = {
  read: ({ settings, ledger }) =>
    createReadTool({ protectedPaths: [settings.stateDir], readLedger: ledger }) as Tool,
  write: ({ settings, ledger }) =>
    createWriteTool({ protectedPaths: [settings.stateDir], readLedger: ledger }) as Tool,
  edit: ({ settings, ledger }) =>
    createEditTool({ protectedPaths: [settings.stateDir], readLedger: ledger }) as Tool,
  bash: ({ settings }) => createBashTool({ protectedPaths: [settings.stateDir] }) as Tool,
};

/** The registry for a run: the enabled tools, behind the runtime policy middleware. */
export interface AssembledTools {
  registry: ToolRegistry;
  /** Registered tools the policy allows: what the model sees and what may execute. */
  visible: string[];
  /** Which files each run has read, shared by read, edit and write. */
  ledger: ReadLedger;
}

/**
 * Register the enabled tools in sorted order and install the allow/deny policy outermost.
 *
 * @example
 * const { registry, visible } = assembleTools(settings);
 */
export function assembleTools(settings: Settings): AssembledTools {
  const unavailable = settings.enabledTools.filter((name) => !(name in TOOL_BUILDERS));
  if (unavailable.length > 0) {
    throw new ConfigurationError(
      `TINY_CLAW_ENABLED_TOOLS names ${unavailable.join(', ')}, which this version of tiny-claw does not provide yet; ` +
        `available tools: ${Object.keys(TOOL_BUILDERS).sort().join(', ')}.`,
    );
  }
  const registry = new ToolRegistry();
  registry.use(
    createPolicyMiddleware({ allowlist: settings.toolAllowlist, denylist: settings.toolDenylist }),
  );
  const env: ToolEnvironment = { settings, ledger: new ReadLedger() };
  for (const name of [...settings.enabledTools].sort()) {
    registry.register((TOOL_BUILDERS[name] as (e: ToolEnvironment) => Tool)(env));
  }
  const visible = allowedToolNames(registry.names(), {
    allowlist: settings.toolAllowlist,
    denylist: settings.toolDenylist,
  });
  return { registry, visible, ledger: env.ledger };
}
