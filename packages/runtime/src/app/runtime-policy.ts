import type { Tool, ToolPolicy } from '@tiny-claw/core';
import type { Settings } from '../settings/settings-schema.js';
import { policyEntryCovers } from './mcp-names.js';

/**
 * The agent's policy from `TINY_CLAW_TOOL_ALLOWLIST` and `TINY_CLAW_TOOL_DENYLIST`. The settings
 * have already refused any name that is not a tool of tiny-claw or an MCP tool's name or pattern
 * (`mcp__<server>__*` stands for every tool of that server); a name of a tool that is not
 * built here (not in `TINY_CLAW_ENABLED_TOOLS`, no such MCP server or tool) is dropped, since denying or allowing a tool that
 * is not there changes nothing. An unset (or empty) allow list sets no `allow` (every tool); a set
 * one whose tools are none of those built allows none, as it says.
 *
 * @example
 * runtimePolicy({ ...settings, toolAllowlist: [], toolDenylist: ['bash'] }, readOnlyTools); // {}
 */
export function runtimePolicy(
  settings: Pick<Settings, 'toolAllowlist' | 'toolDenylist'>,
  tools: readonly Tool[],
): ToolPolicy {
  const built = new Set(tools.flatMap((tool) => [tool.name, ...(tool.subagentTools ?? [])]));
  // An entry names a built tool, or (`mcp__<server>__*`) every built tool of an MCP server.
  const present = (entries: readonly string[]) =>
    [...built].filter((name) => entries.some((entry) => policyEntryCovers(entry, name)));
  const deny = present(settings.toolDenylist);
  return {
    ...(settings.toolAllowlist.length > 0 ? { allow: present(settings.toolAllowlist) } : {}),
    ...(deny.length > 0 ? { deny } : {}),
  };
}
