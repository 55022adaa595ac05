import type { ToolMiddleware } from '@tiny-claw/core';

/** Runtime tool policy: `TINY_CLAW_TOOL_ALLOWLIST` and `TINY_CLAW_TOOL_DENYLIST`. */
export interface ToolPolicyLists {
  /** Empty allows every tool. */
  allowlist: readonly string[];
  /** Always wins over the allowlist. */
  denylist: readonly string[];
}

/** Which list refused a tool, or undefined when the policy allows it. */
export function policyVerdict(
  name: string,
  lists: ToolPolicyLists,
): 'denylist' | 'allowlist' | undefined {
  if (lists.denylist.includes(name)) return 'denylist';
  if (lists.allowlist.length > 0 && !lists.allowlist.includes(name)) return 'allowlist';
  return undefined;
}

/**
 * The tools the policy lets through, in the given order. The same set is shown to the model and
 * enforced by {@link createPolicyMiddleware}, so the model is never offered a tool it may not call.
 *
 * @example
 * allowedToolNames(['bash', 'read'], { allowlist: [], denylist: ['bash'] }); // ['read']
 */
export function allowedToolNames(names: readonly string[], lists: ToolPolicyLists): string[] {
  return names.filter((name) => policyVerdict(name, lists) === undefined);
}

/**
 * Middleware that denies calls to tools outside the allowlist or on the denylist (deny wins).
 *
 * @example
 * registry.use(createPolicyMiddleware({ allowlist: [], denylist: ['bash'] }));
 */
export function createPolicyMiddleware(lists: ToolPolicyLists): ToolMiddleware {
  return async (ctx, next) => {
    const verdict = policyVerdict(ctx.call.name, lists);
    if (!verdict) return next(ctx);
    const content =
      verdict === 'denylist'
        ? `tool call denied by runtime policy: ${ctx.call.name} is in TINY_CLAW_TOOL_DENYLIST`
        : `tool call denied by runtime policy: ${ctx.call.name} is not in TINY_CLAW_TOOL_ALLOWLIST`;
    return {
      status: 'denied',
      reason: verdict,
      output: {
        content,
        isError: true,
        failure: { kind: 'denied' },
        metadata: { error_type: 'tool_policy_denied', tool_policy: verdict },
      },
    };
  };
}
