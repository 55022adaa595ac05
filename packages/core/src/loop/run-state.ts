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
 * An assistant turn whose tool calls were not all answered when the run stopped (a call paused
 * for approval): every call of the turn, in the model's order, and the observations produced so
 * far. The calls without an observation are the ones still to run; the history holds none of the
 * turn's observations until all are answered, so they can be appended in the model's order.
 *
 * @example
 * const pending: PendingBatch = { step: 3, calls: [read, writeEnv, read2], observations: [readResult] };
 */
export interface PendingBatch {
  step: number;
  calls: ToolCall[];
  observations: Message[];
}

/**
 * Everything a run needs to go on, as plain JSON: the history, where the loop is, what it counted.
 * It is what a checkpoint stores, and a run can be continued from it in another process.
 *
 * @example
 * const copy = runStateSchema.parse(JSON.parse(JSON.stringify(state)));
 */
export interface RunState {
  schemaVersion: 1;
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
  pending?: PendingBatch;
  /** Tools' per-run state saved when the run paused, by carry key (see `ToolCarry`). */
  carry?: Record<string, unknown>;
}

/**
 * Schema of a {@link RunState} read back from disk.
 *
 * @example
 * const state = runStateSchema.parse(JSON.parse(text));
 */
export const runStateSchema = z.object({
  schemaVersion: z.literal(1),
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
  plan: z
    .object({
      planning: z.enum(['create', 'replan']).optional(),
      currentItem: z.string().optional(),
      toolError: z.string().optional(),
    })
    .optional(),
  pending: z
    .object({
      step: z.number().int().positive(),
      calls: z.array(toolCallSchema).min(1),
      observations: z.array(messageSchema),
    })
    .optional(),
  carry: z.record(z.string(), z.unknown()).optional(),
}) satisfies z.ZodType<RunState>;

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
    schemaVersion: 1,
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
