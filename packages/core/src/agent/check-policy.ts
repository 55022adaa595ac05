import { ConfigurationError } from '../errors.js';
import type { Tool } from '../tool.js';
import { closestName } from '../utils/closest-name.js';
import { agentText } from './strings.js';
import type { ToolPolicy } from './tool-policy.js';

/**
 * The policy of an agent with `tools`, checked and copied: each list must be an array of strings,
 * and each name one of the tools (or a tool one of them gives its child runs, see
 * `Tool.subagentTools`) — compared exactly, as providers compare tool names. An allow name that is
 * not is refused with the closest tool name, never ignored. A deny name that is not is accepted
 * (there is nothing to deny) unless it is a near miss of one of the tools — a different case or a
 * typo — since an ignored typo in `deny` would leave the tool it meant enabled. A repeated name
 * counts once.
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
      if (known.includes(name)) continue;
      // Denying a tool the agent does not have changes nothing, so it is accepted (a deny list
      // may name every tool a team never wants, whichever this agent was given). What fails open
      // is a misspelt name of a tool the agent has, which would leave that tool enabled, so a deny
      // name that close to one of the tools is refused, as is any allow name that is no tool.
      const nearMiss = closestName(name, known, { maxDistance: typoDistance(name) });
      if (field === 'deny' && name.trim() !== '' && nearMiss === undefined) continue;
      throw new ConfigurationError(
        agentText.unknownPolicyName(field, name, nearMiss ?? closestName(name, known), known),
      );
    }
    checked[field] = [...new Set(names as string[])];
  }
  return checked;
}

/** How many edits still look like a typo of a name this long: one per three characters, at least one. */
function typoDistance(name: string): number {
  return Math.max(1, Math.floor(name.length / 3));
}
