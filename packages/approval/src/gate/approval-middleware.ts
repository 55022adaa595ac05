import type {
  ApprovalRecord,
  ApprovalStore,
  ToolCall,
  ToolExecutionContext,
  ToolExecutionResult,
  ToolMiddleware,
  ToolOutput,
} from '@tiny-claw/core';
import { newApprovalId, newCheckpointId } from '../store/new-record-id.js';
import { changedPath, preImage } from '../store/pre-image.js';
import { toolCallHash } from '../store/tool-call-hash.js';
import { approvalText } from './approval-text.js';
import type { ClaimTokens } from './claim-tokens.js';

/**
 * What a risk policy says about one call: run it, ask a person first, or refuse it, and why.
 *
 * @example
 * const assessment: ApprovalAssessment = { verdict: 'approval_required', reasons: ['deletes files'] };
 */
export interface ApprovalAssessment {
  verdict: 'allow' | 'approval_required' | 'deny';
  reasons: string[];
}

/**
 * The risk policy the gate asks about every call.
 *
 * @example
 * const assess: ApprovalAssessor = async (call) =>
 *   call.name === 'bash' ? { verdict: 'approval_required', reasons: ['runs a command'] } : { verdict: 'allow', reasons: [] };
 */
export type ApprovalAssessor = (
  call: ToolCall,
  ctx: ToolExecutionContext,
) => Promise<ApprovalAssessment>;

/**
 * The `failure.code` of a call the gate refused (its kind is `denied`): the risk policy denies it
 * outright (`risk_policy_denied`), an approved call's file changed since the request
 * (`drifted`), or the call would need a person but the run has no session to keep the request in
 * (`no_session`) or cannot pause (`not_pausable`, a child run). The reasons are in the refusal's
 * text, which the model reads.
 *
 * @example
 * const code: ApprovalRefusalCode = 'drifted';
 */
export type ApprovalRefusalCode = 'risk_policy_denied' | 'drifted' | 'no_session' | 'not_pausable';

/** What the middleware needs from its gate. */
export interface ApprovalMiddlewareOptions {
  approvals: ApprovalStore;
  assess: ApprovalAssessor;
  tokens: ClaimTokens;
  timeoutSeconds: number;
  clock: () => Date;
  /** Told of every request created. */
  onSuspended?: (record: ApprovalRecord) => void;
}

/**
 * The approval middleware. A call carrying a grant from this gate's own claim, for exactly that
 * call and hash, is the approved call being resumed: it goes through unless the policy now denies
 * it outright or its file changed since the request. Every other call is assessed: `allow` runs
 * it, `deny` refuses it, `approval_required` stores a request and pauses the run (the request's
 * hash and pre-image travel with the pause, so the run state keeps them with the waiting call).
 *
 * @example
 * registry.use(approvalMiddleware({ approvals, assess, tokens, timeoutSeconds: 3600, clock, onSuspended }));
 */
export function approvalMiddleware(options: ApprovalMiddlewareOptions): ToolMiddleware {
  return async (ctx, next) => {
    if (ctx.approval !== undefined) {
      const hash = toolCallHash(ctx.call, ctx.workdir);
      const grant = options.tokens.take(ctx.approval.token, ctx.call.id, hash);
      if (grant) {
        // Asking again would only pause it again; a policy that now denies the call still wins.
        const assessment = await options.assess(ctx.call, ctx);
        if (assessment.verdict === 'deny') return denied(assessment.reasons);
        const changed = changedPath(grant.preImage, await preImage(ctx.call, ctx.workdir));
        if (changed !== undefined) return refused(approvalText.driftedAtLaunch(changed), 'drifted');
        const { approval: _spent, ...rest } = ctx;
        return next(rest);
      }
    }

    const assessment = await options.assess(ctx.call, ctx);
    if (assessment.verdict === 'allow') return next(ctx);
    if (assessment.verdict === 'deny') return denied(assessment.reasons);
    return suspend(ctx, assessment, options);
  };
}

async function suspend(
  ctx: ToolExecutionContext,
  assessment: ApprovalAssessment,
  options: ApprovalMiddlewareOptions,
): Promise<ToolExecutionResult> {
  const session = ctx.session;
  if (!session) return refused(approvalText.noSession(ctx.call.name), 'no_session');
  if (ctx.pausable === false) {
    return refused(approvalText.notPausable(ctx.call.name, assessment.reasons), 'not_pausable');
  }
  const createdAt = options.clock();
  const expiresAt = new Date(createdAt.getTime() + options.timeoutSeconds * 1000);
  const requestedBy = ctx.requestedBy;
  const record: ApprovalRecord = {
    schemaVersion: 1,
    id: newApprovalId(),
    checkpointId: newCheckpointId(),
    sessionKey: session.key,
    sessionSource: session.source,
    sessionExternalId: session.externalId,
    chatId: ctx.origin === undefined || ctx.origin === '' ? null : ctx.origin,
    requestedBy: typeof requestedBy === 'string' && requestedBy !== '' ? requestedBy : 'unknown',
    workdir: ctx.workdir,
    toolCallId: ctx.call.id,
    toolName: ctx.call.name,
    // The very object that will be hashed, stored in the checkpoint and shown: a display can never
    // differ from what runs (duplicate JSON keys were already resolved when it was parsed).
    arguments: structuredClone(ctx.call.arguments),
    toolCallHash: toolCallHash(ctx.call, ctx.workdir),
    preImage: await preImage(ctx.call, ctx.workdir),
    riskReasons: [...assessment.reasons],
    status: 'pending',
    createdAt: createdAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
  };
  await options.approvals.create(record);
  options.onSuspended?.(record);
  // The ids travel only in the result's own fields, for the front end that shows the person how
  // to decide; nothing the run keeps or shows the model carries them. A pause is not a failure:
  // the result's status says it, and its request keeps the reasons.
  const output: ToolOutput = { content: approvalText.suspended(record), isError: true };
  return {
    status: 'suspended',
    output,
    approvalId: record.id,
    checkpointId: record.checkpointId,
    request: {
      reasons: [...record.riskReasons],
      toolCallHash: record.toolCallHash,
      preImage: structuredClone(record.preImage),
      expiresAt: record.expiresAt,
    },
  };
}

function denied(reasons: readonly string[]): ToolExecutionResult {
  return refused(approvalText.denied(reasons), 'risk_policy_denied');
}

function refused(content: string, code: ApprovalRefusalCode): ToolExecutionResult {
  return {
    status: 'denied',
    reason: content,
    output: { content, isError: true, failure: { kind: 'denied', code } },
  };
}
