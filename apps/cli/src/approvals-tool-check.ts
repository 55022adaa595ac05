import type { Settings } from '@tiny-claw/runtime';
import { approvalsText } from './approvals-strings.js';

/** The settings that decide which tools a process may run. */
type ToolSettings = Pick<Settings, 'enabledTools' | 'toolAllowlist' | 'toolDenylist'>;

function listed(list: readonly string[], tool: string): boolean {
  return list.includes(tool);
}

/**
 * Why this process cannot run the tool of a request it was asked to approve, naming the setting
 * to change, or undefined when it can. Approving such a request would claim it and then answer the
 * call with "unknown tool": the approval used up, the call never run. So it is refused before
 * anything is claimed, and the request stays pending for a process that can run it.
 *
 * @example
 * toolRefusal('ap_…', 'bash', ['read'], settings);
 * // 'approval ap_… is for a bash call, but bash is not in TINY_CLAW_ENABLED_TOOLS (read) …'
 */
export function toolRefusal(
  id: string,
  tool: string,
  available: readonly string[],
  settings: ToolSettings,
): string | undefined {
  if (listed(available, tool)) return undefined;
  if (listed(settings.toolDenylist, tool)) {
    return approvalsText.toolDenied(id, tool, settings.toolDenylist);
  }
  if (settings.toolAllowlist.length > 0 && !listed(settings.toolAllowlist, tool)) {
    return approvalsText.toolNotAllowed(id, tool, settings.toolAllowlist);
  }
  if (!listed(settings.enabledTools, tool)) {
    return approvalsText.toolNotEnabled(id, tool, settings.enabledTools);
  }
  return approvalsText.toolUnavailable(id, tool);
}
