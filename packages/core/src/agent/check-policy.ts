import { ConfigurationError } from '../errors.js';
import type { Tool } from '../tool.js';
import { closestName } from '../utils/closest-name.js';
import { agentText } from './strings.js';
import type { ToolPolicy } from './tool-policy.js';

/**
 * The policy of an agent with `tools`, checked and copied: each list must be an array of strings,
 * and each name one of the tools (or a tool one of them gives its child runs, see
 * `Tool.subagentTools`) — compared exactly, as providers compare tool names. A name that is not is
 * refused with the closest tool name, never ignored: an ignored typo in `deny` would leave the
 * tool it meant enabled. A repeated name counts once.
 *
 * @throws ConfigurationError for a list that is not an array of strings or a name that is no tool.
 */
export function checkPolicy(policy: unknown, tools: readonly Tool[]): ToolPolicy {
  if (policy === undefined) return {};
  if (typeof policy !== 'object' || policy === null || Array.isArray(policy)) {
    throw new ConfigurationError(agentText.policyNotAnObject);
  }
  const given = policy as Record<string, unknown>;
  const extra = Object.keys(given).filter((key) => key !== 'allow' && key !== 'deny');
  if (extra.length > 0) throw new ConfigurationError(agentText.policyUnknownField(extra));
  const known = [
    ...new Set(tools.flatMap((tool) => [tool.name, ...(tool.subagentTools ?? [])])),
  ].sort();
  const checked: { allow?: string[]; deny?: string[] } = {};
  for (const field of ['allow', 'deny'] as const) {
    const names = given[field];
    if (names === undefined) continue;
    if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
      throw new ConfigurationError(agentText.badPolicy(field));
    }
    for (const name of names as string[]) {
      if (!known.includes(name)) {
        throw new ConfigurationError(
          agentText.unknownPolicyName(field, name, closestName(name, known), known),
        );
      }
    }
    checked[field] = [...new Set(names as string[])];
  }
  return checked;
}
