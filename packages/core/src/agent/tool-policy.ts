import type { ToolMiddleware } from '../tool.js';
import { agentText } from './strings.js';

/**
 * Which tools an agent may use: `deny` always wins; without `allow` every tool not denied is
 * allowed, and `allow: []` allows none. Every name must be one of the agent's tools (or a tool one
 * of them gives its child runs); `createAgent` refuses any other name, so a typo can never leave a
 * tool enabled. The same policy decides both what the model is shown and what may run, so the two
 * can never disagree.
 *
 * @example
 * const policy: ToolPolicy = { deny: ['shell'] };
 */
export interface ToolPolicy {
  allow?: readonly string[];
  deny?: readonly string[];
}

/**
 * The `failure.code` of a call the policy refused: the list that refused it.
 *
 * @example
 * const refused = toolPolicyCodes.some((code) => output.failure?.code === code);
 */
export const toolPolicyCodes = ['allow_list', 'deny_list'] as const;

/**
 * One of {@link toolPolicyCodes}.
 *
 * @example
 * const code: ToolPolicyCode = list === 'deny' ? 'deny_list' : 'allow_list';
 */
export type ToolPolicyCode = (typeof toolPolicyCodes)[number];

/**
 * Which list of `policy` refuses the tool `name`, or undefined when the policy allows it.
 *
 * @example
 * refusingList('shell', { deny: ['shell'] }); // 'deny'
 * refusingList('lookup', { allow: ['search'] }); // 'allow'
 * refusingList('lookup', { allow: [] }); // 'allow'
 */
export function refusingList(name: string, policy: ToolPolicy): 'deny' | 'allow' | undefined {
  if (policy.deny?.includes(name)) return 'deny';
  if (policy.allow && !policy.allow.includes(name)) return 'allow';
  return undefined;
}

/**
 * Whether `policy` lets the tool `name` be shown and run.
 *
 * @example
 * isAllowed('shell', { deny: ['shell'] }); // false
 * isAllowed('lookup', { allow: ['lookup'], deny: [] }); // true
 */
export function isAllowed(name: string, policy: ToolPolicy): boolean {
  return refusingList(name, policy) === undefined;
}

/**
 * Answers any call to a tool the policy refuses with a denial, before anything else sees it: kind
 * `denied`, the refusing list as its code ({@link ToolPolicyCode}). The model is never shown such
 * a tool; this catches a model that calls it anyway.
 *
 * @example
 * registry.use(policyMiddleware({ deny: ['shell'] }));
 */
export function policyMiddleware(policy: ToolPolicy): ToolMiddleware {
  return async (ctx, next) => {
    const list = refusingList(ctx.call.name, policy);
    if (list === undefined) return next(ctx);
    return {
      status: 'denied',
      reason: list,
      output: {
        content: agentText.deniedByPolicy(ctx.call.name, list, ctx.visibleTools),
        isError: true,
        failure: { kind: 'denied', code: list === 'deny' ? 'deny_list' : 'allow_list' },
      },
    };
  };
}
