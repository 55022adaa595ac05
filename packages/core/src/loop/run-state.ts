import { z } from 'zod';
import { type Message, messageSchema, type ToolCall, toolCallSchema } from '../messages.js';
import { usageSchema } from '../observe/usage.js';
import type { LLMUsage } from '../provider.js';
import { type SessionRef, sessionRefSchema } from '../session/session-ref.js';
import { type RunMode, runModes } from './run-types.js';

/**
 * How far a plan-act run got through its plan. The plan files themselves live in the session's
 * plan store; this is only the run's position in them.
 *
 * @example
 * const progress: PlanProgress = { currentItem: 'TC-002' };
 */
export interface PlanProgress {
  /** Set while the next step must write (`create`) or revise (`replan`) the plan. */
  planning?: 'create' | 'replan';
  /** Id of the TODO item being executed. */
  currentItem?: string;
  /** The latest failed tool call during the current item; it vetoes a `completed` verdict. */
  toolError?: string;
}

/**
 * Where one call of an open assistant turn stands:
 * - `pending`: not run yet (it runs when the run goes on);
 * - `awaiting_approval`: it asked for a person's decision, and the run paused for it;
 * - `approved` / `rejected`: a decision was recorded and the run goes on from it (transient: the
 *   loop turns them into `executed` as soon as it continues);
 * - `executed`: answered; its observation waits for the rest of the turn.
 */
export const batchCallStatuses = [
  'pending',
  'awaiting_approval',
  'approved',
  'rejected',
  'executed',
] as const;

/**
 * One of {@link batchCallStatuses}.
 *
 * @example
 * const status: BatchCallStatus = 'awaiting_approval';
 */
export type BatchCallStatus = (typeof batchCallStatuses)[number];

/**
 * The approval request a call waits on, as the run keeps it: enough to check a decision against
 * the call it was made for, in any process. `toolCallHash` and `preImage` are what the approval
 * gate recorded (the call's canonical hash, the files it would change as they were); core keeps
 * them and never reads them.
 *
 * @example
 * const request: ApprovalRequestRef = { approvalId: 'ap_…', checkpointId: 'cp_…', reasons: ['writes .env'] };
 */
export interface ApprovalRequestRef {
  approvalId: string;
  /** The id the paused run's state is stored under. */
  checkpointId: string;
  reasons: string[];
  toolCallHash?: string;
  preImage?: unknown;
  expiresAt?: string;
}

/**
 * A person's decision on a call, recorded in the state before the run goes on.
 *
 * @example
 * const decision: CallDecision = { approve: false, actor: 'cli:alice', reason: 'not on main' };
 */
export interface CallDecision {
  approve: boolean;
  actor: string;
  reason?: string;
  /** Milliseconds between the request and the decision. */
  waitMs?: number;
}

/**
 * One call of an open assistant turn: the call, its position in the turn, where it stands, and
 * what it produced or waits on.
 *
 * @example
 * const entry: BatchCall = { call, index: 1, status: 'awaiting_approval', approval: { approvalId, checkpointId, reasons: [] } };
 */
export interface BatchCall {
  call: ToolCall;
  /** Position of the call in its assistant turn. */
  index: number;
  status: BatchCallStatus;
  /** The answer the model will read (set once `executed`). */
  observation?: Message;
  /** The request the call waits on (`awaiting_approval`), or was decided through. */
  approval?: ApprovalRequestRef;
  /** The decision (`approved` / `rejected`, and kept once such a call is `executed`). */
  decision?: CallDecision;
}

/**
 * An assistant turn whose tool calls are not all answered yet: every call of the turn, in the
 * model's order, each with its status. The history holds none of the turn's observations until
 * all are answered, so they join it in the model's order.
 *
 * @example
 * const batch: PendingBatch = { step: 3, calls: [{ call: read, index: 0, status: 'executed', observation }, { call: writeEnv, index: 1, status: 'awaiting_approval', approval }] };
 */
export interface PendingBatch {
  step: number;
  calls: BatchCall[];
}

/**
 * Everything a run needs to go on, as plain JSON: the history, where the loop is, what it counted.
 * It is what a checkpoint stores, and a run can be continued from it in another process.
 *
 * @example
 * const copy = runStateSchema.parse(JSON.parse(JSON.stringify(state)));
 */
export interface RunState {
  schemaVersion: 2;
  runId: string;
  session: SessionRef;
  prompt: string;
  mode: RunMode;
  maxSteps: number;
  /** Steps begun so far. */
  step: number;
  messages: Message[];
  /** The tools the model may see and call on this run (policy ∩ the selected skill's list). */
  tools: string[];
  /** Text of the latest assistant turn. */
  lastText: string;
  /** Assistant turns in a row with neither text nor tool calls. */
  emptyTurns: number;
  /** Failures since the last success, per canonical call (tool + arguments). */
  failures: Record<string, number>;
  /** Tokens of every model call so far, nested runs included. */
  usage: LLMUsage | null;
  costUsd: number | null;
  /** A call reported usage but had no price: a cost total would be too low, so none is reported. */
  unpricedCall: boolean;
  model: string | null;
  plan?: PlanProgress;
  /** The current assistant turn's calls while they are being answered (or wait for a decision). */
  batch?: PendingBatch;
  /** Tools' per-run state saved when the run paused, by carry key (see `ToolCarry`). */
  carry?: Record<string, unknown>;
}

const planProgressSchema = z.object({
  planning: z.enum(['create', 'replan']).optional(),
  currentItem: z.string().optional(),
  toolError: z.string().optional(),
});

const approvalRequestRefSchema = z.object({
  approvalId: z.string().min(1),
  checkpointId: z.string().min(1),
  reasons: z.array(z.string()),
  toolCallHash: z.string().optional(),
  preImage: z.unknown().optional(),
  expiresAt: z.string().optional(),
});

const batchCallSchema = z.object({
  call: toolCallSchema,
  index: z.number().int().nonnegative(),
  status: z.enum(batchCallStatuses),
  observation: messageSchema.optional(),
  approval: approvalRequestRefSchema.optional(),
  decision: z
    .object({
      approve: z.boolean(),
      actor: z.string().min(1),
      reason: z.string().optional(),
      waitMs: z.number().nonnegative().optional(),
    })
    .optional(),
});

/** The fields every version of the state has in common. */
const commonFields = {
  runId: z.string().min(1),
  session: sessionRefSchema,
  prompt: z.string(),
  mode: z.enum(runModes),
  maxSteps: z.number().int().positive(),
  step: z.number().int().nonnegative(),
  messages: z.array(messageSchema),
  tools: z.array(z.string()),
  lastText: z.string(),
  emptyTurns: z.number().int().nonnegative(),
  failures: z.record(z.string(), z.number().int().nonnegative()),
  usage: usageSchema.nullable(),
  costUsd: z.number().nonnegative().nullable(),
  unpricedCall: z.boolean(),
  model: z.string().nullable(),
  plan: planProgressSchema.optional(),
  carry: z.record(z.string(), z.unknown()).optional(),
};

const runStateV2Schema = z
  .object({
    schemaVersion: z.literal(2),
    ...commonFields,
    batch: z
      .object({ step: z.number().int().positive(), calls: z.array(batchCallSchema).min(1) })
      .optional(),
  })
  .superRefine((state, ctx) => {
    const calls = state.batch?.calls ?? [];
    const ids = new Set(calls.map((entry) => entry.call.id));
    if (ids.size !== calls.length) {
      ctx.addIssue({ code: 'custom', message: 'a call appears twice in the batch' });
    }
    for (const entry of calls) {
      if ((entry.status === 'executed') !== (entry.observation !== undefined)) {
        ctx.addIssue({
          code: 'custom',
          message: `call ${entry.call.id}: an executed call has an observation, and only it`,
        });
      }
      const waits = entry.status === 'awaiting_approval';
      const decided = entry.status === 'approved' || entry.status === 'rejected';
      if ((waits || decided) && entry.approval === undefined) {
        ctx.addIssue({ code: 'custom', message: `call ${entry.call.id}: no approval request` });
      }
      if (decided && entry.decision === undefined) {
        ctx.addIssue({ code: 'custom', message: `call ${entry.call.id}: no decision` });
      }
      if (decided && entry.decision?.approve !== (entry.status === 'approved')) {
        ctx.addIssue({
          code: 'custom',
          message: `call ${entry.call.id}: the decision does not match the status`,
        });
      }
    }
  });

/**
 * The first version of the state (written by tiny-claw before the batch kept each call's
 * status): the turn's calls and the observations made so far. A checkpoint written by it is
 * read as the current version, every call without an observation still to run.
 */
const runStateV1Schema = z
  .object({
    schemaVersion: z.literal(1),
    ...commonFields,
    pending: z
      .object({
        step: z.number().int().positive(),
        calls: z.array(toolCallSchema).min(1),
        observations: z.array(messageSchema),
      })
      .optional(),
  })
  .transform(({ schemaVersion: _v1, pending, ...rest }): RunState => {
    const state: RunState = { schemaVersion: 2, ...rest };
    if (pending) {
      const answered = new Map(pending.observations.map((m) => [m.toolCallId, m]));
      state.batch = {
        step: pending.step,
        calls: pending.calls.map((call, index): BatchCall => {
          const observation = answered.get(call.id);
          return observation
            ? { call, index, status: 'executed', observation }
            : { call, index, status: 'pending' };
        }),
      };
    }
    return state;
  });

/**
 * Schema of a {@link RunState} read back from disk or handed in by a caller: the current version,
 * or the first one (read as the current one).
 *
 * @example
 * const state = runStateSchema.parse(JSON.parse(text));
 */
export const runStateSchema: z.ZodType<RunState, unknown> = z.union([
  runStateV2Schema,
  runStateV1Schema,
]);

/** The version of the state this build writes. */
export const RUN_STATE_VERSION = 2;

/**
 * A fresh state for a run that has not taken a step yet.
 *
 * @example
 * const state = newRunState({ runId, session, prompt: 'hi', mode: 'act', maxSteps: 20, model: null });
 */
export function newRunState(init: {
  runId: string;
  session: SessionRef;
  prompt: string;
  mode: RunMode;
  maxSteps: number;
  model: string | null;
}): RunState {
  return {
    schemaVersion: 2,
    ...init,
    step: 0,
    messages: [],
    tools: [],
    lastText: '',
    emptyTurns: 0,
    failures: {},
    usage: null,
    costUsd: null,
    unpricedCall: false,
  };
}
