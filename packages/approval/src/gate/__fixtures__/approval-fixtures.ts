import {
  ApprovalError,
  type ApprovalGate,
  type ClaimedApproval,
  createMemoryStore,
  type StateStore,
  type SessionRef,
  type ToolCall,
  type ToolExecutionContext,
  type ToolExecutionResult,
} from '@tiny-claw/core';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileStore } from '@tiny-claw/workspace';
import type { ApprovalAssessment, ApprovalAssessor } from '../approval-middleware.js';
import { type ApprovalGateOptions, createApprovalGate } from '../create-approval-gate.js';
import { pausedState } from '../../store/__fixtures__/records.js';

export { bashCall, cliSessionOf, deadPid, pausedState } from '../../store/__fixtures__/records.js';


/** A chat session of `workdir` for chat `chatId` (already normalised). */
export function chatSessionOf(workdir: string, chatId: string): SessionRef {
  return {
    key: `feishu-1a2b3c4d5e6f-chat-${chatId}`,
    source: 'feishu',
    externalId: `chat:${chatId}`,
    displayName: `chat:${chatId}`,
    workdir,
  };
}

/** A policy that answers by tool name; unknown tools are allowed. */
export function fakeAssess(verdicts: Record<string, ApprovalAssessment['verdict']>): ApprovalAssessor {
  return async (call) => {
    const verdict = verdicts[call.name] ?? 'allow';
    return { verdict, reasons: verdict === 'allow' ? [] : [`${call.name} is ${verdict}`] };
  };
}

/** A clock the test moves by hand. */
export function fakeClock(start = '2026-01-01T00:00:00.000Z') {
  let now = Date.parse(start);
  return {
    now: () => new Date(now),
    set: (iso: string) => {
      now = Date.parse(iso);
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** The execution context of `call` in `session`. */
export function contextFor(
  call: ToolCall,
  session: SessionRef,
  extra: Partial<Pick<ToolExecutionContext, 'approval' | 'requestedBy' | 'origin' | 'pausable'>> = {},
): ToolExecutionContext {
  return {
    call,
    workdir: session.workdir,
    session,
    runId: 'run_1',
    signal: new AbortController().signal,
    visibleTools: ['bash', 'read', 'write', 'edit'],
    metadata: { tool_call_index: 0 },
    ...extra,
  };
}

/** What the loop hands the middlewares with an approved call: the claim's grant. */
export function grantOf(claimed: ClaimedApproval): Pick<ToolExecutionContext, 'approval'> {
  return claimed.grant === undefined ? {} : { approval: claimed.grant };
}

/** A `next` that records the calls it ran and answers them. */
export function recordingNext() {
  const ran: ToolCall[] = [];
  const next = async (ctx: ToolExecutionContext): Promise<ToolExecutionResult> => {
    ran.push(ctx.call);
    return { status: 'completed', output: { content: `ran ${ctx.call.name}`, isError: false } };
  };
  return { ran, next };
}


/**
 * Pause `call` through the gate the way the loop does (middleware, then the checkpoint) and
 * return the new approval and checkpoint ids.
 */
export async function pauseCall(
  gate: ApprovalGate,
  session: SessionRef,
  call: ToolCall,
  extra: Parameters<typeof contextFor>[2] = {},
): Promise<{ approvalId: string; checkpointId: string; result: ToolExecutionResult }> {
  const result = await gate.middleware(contextFor(call, session, extra), recordingNext().next);
  if (result.status !== 'suspended') throw new Error(`expected a pause, got ${result.status}`);
  await gate.saveCheckpoint(result.checkpointId, pausedState(session, [call]));
  return { approvalId: result.approvalId, checkpointId: result.checkpointId, result };
}


/** A gate over file or memory stores, with a fake clock and a fake policy. */
export async function gateHarness(
  kind: 'file' | 'memory',
  options: {
    verdicts?: Record<string, ApprovalAssessment['verdict']>;
    assess?: ApprovalAssessor;
    canDecide?: ApprovalGateOptions['canDecide'];
    timeoutSeconds?: number;
  } = {},
) {
  const stateDir = await mkdtemp(join(tmpdir(), 'tiny-claw-gate-'));
  const stores: StateStore = kind === 'file' ? createFileStore(stateDir) : createMemoryStore();
  const clock = fakeClock();
  const verdicts = options.verdicts ?? { bash: 'approval_required', edit: 'approval_required', write: 'approval_required' };
  const gateOptions: ApprovalGateOptions = {
    store: stores,
    assess: options.assess ?? fakeAssess(verdicts),
    clock: clock.now,
  };
  if (options.canDecide) gateOptions.canDecide = options.canDecide;
  if (options.timeoutSeconds !== undefined) gateOptions.timeoutSeconds = options.timeoutSeconds;
  const gate = createApprovalGate(gateOptions);
  return {
    gate,
    stores,
    clock,
    stateDir,
    cleanup: () => rm(stateDir, { recursive: true, force: true }),
  };
}

/** The refusal a promise rejected with; fails the test for anything else. */
export async function refusalOf(promise: Promise<unknown>): Promise<ApprovalError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApprovalError)) {
    throw new Error(`expected an ApprovalError, got ${String(error)}`);
  }
  return error;
}
