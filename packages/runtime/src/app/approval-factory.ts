import { type ApprovalAssessor, createApprovalGate } from '@tiny-claw/approval';
import type { ApprovalGate, ApprovalStores, Logger } from '@tiny-claw/core';
import type { Settings } from '../settings/settings-schema.js';
import { createRuntimePolicy, type RuntimePolicy } from './runtime-rules.js';

/**
 * Which front end assembles the application: `auto` approvals are asked in the terminal by the
 * CLI and in the chat by the server (when Feishu is configured).
 *
 * @example
 * const front: FrontEnd = 'cli';
 */
export type FrontEnd = 'cli' | 'server';

/**
 * Who decides on risky calls, once `auto` is resolved for the front end.
 *
 * @example
 * effectiveApprovalProvider(settings, 'cli'); // 'cli' unless TINY_CLAW_APPROVAL_PROVIDER=off
 */
export function effectiveApprovalProvider(
  settings: Settings,
  front: FrontEnd,
): 'off' | 'cli' | 'feishu' {
  if (settings.approvalProvider !== 'auto') return settings.approvalProvider;
  if (front === 'cli') return 'cli';
  return settings.feishu.appId && settings.feishu.appSecret ? 'feishu' : 'off';
}

/**
 * The risk policy of the application: it judges the calls of `TINY_CLAW_APPROVAL_REQUIRED_TOOLS`
 * in the call's workdir, with the state dir and tiny-claw's own settings files as protected paths,
 * and knows the bash sandbox in force (`TINY_CLAW_SANDBOX`, `auto` resolved the way the bash tool
 * resolves it, once, at the first judged call), so a write outside the workdir is refused under
 * the sandbox and asked without it. The user's kept rules (and a trusted project's ask and deny
 * rules) apply on top ({@link createRuntimePolicy}), and so do the "always" answers given in the
 * call's session. Pass the application's own `policy` so the answers it keeps count here.
 *
 * @example
 * const assess = runtimeRiskPolicy(settings);
 * await assess(call, ctx); // { verdict: 'approval_required', reasons: [...] }
 */
export function runtimeRiskPolicy(
  settings: Settings,
  logger?: Logger,
  policy: RuntimePolicy = createRuntimePolicy(settings, logger),
): ApprovalAssessor {
  return async (call, ctx) => {
    const { verdict, reasons } = await policy.judge(call, ctx.workdir, ctx.session?.key);
    return { verdict, reasons };
  };
}

/**
 * The approval gate of the application, or undefined when approvals are off: requests and paused
 * runs' states are kept in the application's state store — files under the state dir, or the
 * PostgreSQL store at `TINY_CLAW_STATE_URL`, so `tiny-claw approvals approve` in another process
 * (another replica) can continue a run — the risk policy judges the
 * calls of `TINY_CLAW_APPROVAL_REQUIRED_TOOLS`
 * (the state dir and tiny-claw's own settings files count as protected paths),
 * and a request expires after `TINY_CLAW_APPROVAL_TIMEOUT_SECONDS` ({@link runtimeRiskPolicy}). In a chat only the run's
 * requester or `FEISHU_APPROVERS` may decide.
 *
 * @example
 * const approvals = createRuntimeApprovals(settings, 'cli', createFileStore(settings.stateDir));
 */
export function createRuntimeApprovals(
  settings: Settings,
  front: FrontEnd,
  store: ApprovalStores,
  logger?: Logger,
  policy?: RuntimePolicy,
): ApprovalGate | undefined {
  const provider = effectiveApprovalProvider(settings, front);
  if (provider === 'off') return undefined;
  const approvers = settings.feishu.approvers;
  return createApprovalGate({
    store,
    timeoutSeconds: settings.approvalTimeoutSeconds,
    assess: runtimeRiskPolicy(settings, logger, policy),
    ...(provider === 'feishu'
      ? {
          canDecide: (actor, record) => actor === record.requestedBy || approvers.includes(actor),
        }
      : {}),
  });
}
