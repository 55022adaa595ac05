import { type Message, msg, type ToolCall } from '../messages.js';
import type { Phase } from './run-types.js';
import { loopText } from './strings.js';

/**
 * Registered tools, narrowed by the run's allowed set and by the selected skill's `allowed-tools`.
 * The same list is sent as definitions and enforced at execution, so a hidden tool cannot run.
 *
 * @example
 * visibleTools(['bash', 'read', 'write'], ['read', 'write'], ['read']); // ['read']
 */
export function visibleTools(
  registered: readonly string[],
  runAllowed: readonly string[] | undefined,
  skillAllowed: readonly string[] | undefined,
): string[] {
  let visible = [...registered];
  if (runAllowed) {
    const allowed = new Set(runAllowed);
    visible = visible.filter((name) => allowed.has(name));
  }
  if (skillAllowed) {
    // Skill frontmatter names are lower-cased; registered names are compared the same way.
    const allowed = new Set(skillAllowed.map((name) => name.toLowerCase()));
    visible = visible.filter((name) => allowed.has(name.toLowerCase()));
  }
  return visible;
}

/**
 * Answers for calls made in a phase that offers no tools: even refused calls get a result, so the
 * history stays valid for any provider.
 *
 * @example
 * messages.push(...refusedCallObservations(calls, 'think'));
 */
export function refusedCallObservations(calls: readonly ToolCall[], phase: Phase): Message[] {
  return calls.map((call) =>
    msg.tool(call, loopText.toolsNotAllowed(phase), {
      is_error: true,
      error_type: 'tool_policy_blocked',
    }),
  );
}
