import { assessCall, createApprovalGate } from '@tiny-claw/approval';
import type { ApprovalGate, ApprovalStores } from '@tiny-claw/core';
import type { Settings } from '../settings/settings-schema.js';

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
 * The approval gate of the application, or undefined when approvals are off: requests and paused
 * runs' states are kept in the application's state store — files under the state dir, so
 * `tiny-claw approvals approve` in another process can continue a run — the risk policy judges the
 * calls of `TINY_CLAW_APPROVAL_REQUIRED_TOOLS`
 * (the state dir and tiny-claw's own settings files count as protected paths),
 * and a request expires after `TINY_CLAW_APPROVAL_TIMEOUT_SECONDS`. In a chat only the run's
 * requester or `FEISHU_APPROVERS` may decide.
 *
 * @example
 * const approvals = createRuntimeApprovals(settings, 'cli', createFileStore(settings.stateDir));
 */
export function createRuntimeApprovals(
  settings: Settings,
  front: FrontEnd,
  store: ApprovalStores,
): ApprovalGate | undefined {
  const provider = effectiveApprovalProvider(settings, front);
  if (provider === 'off') return undefined;
  const approvers = settings.feishu.approvers;
  return createApprovalGate({
    store,
    timeoutSeconds: settings.approvalTimeoutSeconds,
    assess: (call, ctx) =>
      assessCall(call, {
        requiredTools: settings.approvalRequiredTools,
        workdir: ctx.workdir,
        protectedPaths: [settings.stateDir, ...settings.settingsPaths],
      }),
    ...(provider === 'feishu'
      ? {
          canDecide: (actor, record) => actor === record.requestedBy || approvers.includes(actor),
        }
      : {}),
  });
}
