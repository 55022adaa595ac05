import type { Settings } from '../settings/settings-schema.js';
import { policyEntryCovers } from './mcp-names.js';

/** The settings that decide which tools a process may run. */
type ToolSettings = Pick<Settings, 'enabledTools' | 'toolAllowlist' | 'toolDenylist'>;

/** Whether `list` names `tool` (or, for an MCP tool, its server's `mcp__<server>__*`). */
function names(list: readonly string[], tool: string): boolean {
  return list.some((entry) => policyEntryCovers(entry, tool));
}

const keptPending =
  'Approving it here would use the approval up without running the call, so nothing was decided: the request is still pending.';

function intro(id: string, tool: string): string {
  return `approval ${id} is for a ${tool} call, but this process cannot run ${tool}:`;
}

function shownList(list: readonly string[]): string {
  return list.length === 0 ? 'empty' : list.join(',');
}

/** What this process says when it cannot run the tool of a request it was asked to approve. */
export const toolRefusalText = {
  notEnabled: (id: string, tool: string, enabled: readonly string[]) =>
    `${intro(id, tool)} it is not in TINY_CLAW_ENABLED_TOOLS (${shownList(enabled)}). ${keptPending} Approve it from a process that enables ${tool}, e.g. TINY_CLAW_ENABLED_TOOLS=${[...enabled, tool].join(',')} tiny-claw approvals approve ${id}`,
  denied: (id: string, tool: string, denied: readonly string[]) =>
    `${intro(id, tool)} TINY_CLAW_TOOL_DENYLIST (${shownList(denied)}) denies it. ${keptPending} Approve it from a process whose TINY_CLAW_TOOL_DENYLIST does not list ${tool}.`,
  notAllowed: (id: string, tool: string, allowed: readonly string[]) =>
    `${intro(id, tool)} it is not in TINY_CLAW_TOOL_ALLOWLIST (${shownList(allowed)}). ${keptPending} Approve it from a process whose TINY_CLAW_TOOL_ALLOWLIST includes ${tool} (or is unset).`,
  unavailable: (id: string, tool: string) =>
    `${intro(id, tool)} no such tool is available here (check TINY_CLAW_ENABLED_TOOLS with 'tiny-claw health'). ${keptPending}`,
} as const;

/**
 * Why this process cannot run `tool`, the tool of approval `id`, naming the setting to change:
 * the deny list, the allow list, or the enabled tools, in that order.
 *
 * @example
 * toolRefusal('ap_…', 'bash', settings);
 * // 'approval ap_… is for a bash call, but this process cannot run bash: it is not in TINY_CLAW_ENABLED_TOOLS (read) …'
 */
export function toolRefusal(id: string, tool: string, settings: ToolSettings): string {
  if (names(settings.toolDenylist, tool)) {
    return toolRefusalText.denied(id, tool, settings.toolDenylist);
  }
  if (settings.toolAllowlist.length > 0 && !names(settings.toolAllowlist, tool)) {
    return toolRefusalText.notAllowed(id, tool, settings.toolAllowlist);
  }
  if (!names(settings.enabledTools, tool)) {
    return toolRefusalText.notEnabled(id, tool, settings.enabledTools);
  }
  return toolRefusalText.unavailable(id, tool);
}
