import type { ToolMiddleware } from '../tool.js';
import { agentText } from './strings.js';

/**
 * Which tools an agent may use: `deny` always wins; without `allow` (or with an empty one) every
 * tool not denied is allowed. The same policy decides both what the model is shown and what may
 * run, so the two can never disagree.
 *
 * @example
 * const policy: ToolPolicy = { deny: ['shell'] };
 */
export interface ToolPolicy {
  allow?: readonly string[];
  deny?: readonly string[];
}

/**
 * Whether `policy` lets the tool `name` be shown and run.
 *
 * @example
 * isAllowed('shell', { deny: ['shell'] }); // false
 * isAllowed('lookup', { allow: ['lookup'], deny: [] }); // true
 */
export function isAllowed(name: string, policy: ToolPolicy): boolean {
  if (policy.deny?.includes(name)) return false;
  return !policy.allow || policy.allow.length === 0 || policy.allow.includes(name);
}

/**
 * Answers any call to a tool the policy refuses with a denial, before anything else sees it. The
 * model is never shown such a tool; this catches a model that calls it anyway.
 *
 * @example
 * registry.use(policyMiddleware({ deny: ['shell'] }));
 */
export function policyMiddleware(policy: ToolPolicy): ToolMiddleware {
  return async (ctx, next) => {
    if (isAllowed(ctx.call.name, policy)) return next(ctx);
    return {
      status: 'denied',
      reason: 'policy',
      output: {
        content: agentText.deniedByPolicy(ctx.call.name, ctx.visibleTools),
        isError: true,
        failure: { kind: 'denied' },
        metadata: { error_type: 'denied' },
      },
    };
  };
}
