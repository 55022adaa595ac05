import { z } from 'zod';
import type { LLMUsage } from '../provider.js';
import type { RunState } from './run-state.js';

/**
 * How a run uses the model: act with tools, think without, plan, or plan then act.
 *
 * @example
 * runModes.includes('plan-act'); // true
 */
export const runModes = ['act', 'think', 'plan', 'plan-act'] as const;

/**
 * One of {@link runModes}.
 *
 * @example
 * const mode: RunMode = 'think';
 */
export type RunMode = (typeof runModes)[number];

/**
 * What one step is for: `act` offers tools; `think` and `plan` do not.
 *
 * @example
 * const phase: Phase = 'plan';
 */
export type Phase = 'act' | 'think' | 'plan';

/**
 * Why a run ended.
 *
 * @example
 * stopReasons.includes('final'); // true
 */
export const stopReasons = [
  'final',
  'max_steps_exhausted',
  'tool_policy_blocked',
  'approval_required',
  'approval_resume_failed',
  'cancelled',
  'provider_error',
] as const;
/**
 * One of {@link stopReasons}.
 *
 * @example
 * if (result.stopReason === 'approval_required') console.log(result.approvalId);
 */
export type StopReason = (typeof stopReasons)[number];

/**
 * More about why a run stopped, when the stop reason alone does not say.
 *
 * @example
 * if (result.stopDetail === 'empty_turns') console.log('the model kept answering with nothing');
 */
export const stopDetails = ['empty_turns'] as const;

/** One of {@link stopDetails}. */
export type StopDetail = (typeof stopDetails)[number];

/**
 * The outcome of one run, as the CLI prints it with `--json`.
 *
 * @example
 * if (result.stopReason === 'final') console.log(result.text);
 */
export interface RunResult {
  runId: string;
  sessionKey: string;
  workdir: string;
  text: string;
  stopReason: StopReason;
  /**
   * Set when a `provider_error` stop was not a failed call but a model that kept answering with
   * nothing (no text, no tool calls): the run ended without a final answer.
   */
  stopDetail?: StopDetail;
  steps: number;
  maxSteps: number;
  mode: RunMode;
  provider: string;
  model: string | null;
  usage: LLMUsage | null;
  costUsd?: number;
  /** PLAN.md of the session, in the plan modes once a plan exists. */
  plan?: string;
  approvalId?: string;
  checkpointId?: string;
  traceId?: string;
  tracePath?: string;
  /**
   * The paused run's state (`approval_required` only): what `agent.resume(state, decisions)`
   * continues, here or, serialised as JSON, in another process. It holds the conversation (with
   * secrets in tool results already redacted where the approval gate stores it), so keep it like
   * the session's own data; `run --json` does not print it.
   */
  state?: RunState;
}

/**
 * Schema of a {@link RunResult} read back from JSON (e.g. the CLI's `run --json` output).
 *
 * @example
 * const result = runResultSchema.parse(JSON.parse(stdout));
 */
export const runResultSchema: z.ZodType<RunResult, unknown> = z.object({
  runId: z.string(),
  sessionKey: z.string(),
  workdir: z.string(),
  text: z.string(),
  stopReason: z.enum(stopReasons),
  stopDetail: z.enum(stopDetails).optional(),
  steps: z.number().int().nonnegative(),
  maxSteps: z.number().int().positive(),
  mode: z.enum(runModes),
  provider: z.string(),
  model: z.string().nullable(),
  usage: z
    .object({
      inputTokens: z.number(),
      outputTokens: z.number(),
      totalTokens: z.number(),
      cacheReadTokens: z.number().optional(),
      cacheWriteTokens: z.number().optional(),
      reasoningTokens: z.number().optional(),
    })
    .nullable(),
  costUsd: z.number().optional(),
  plan: z.string().optional(),
  approvalId: z.string().optional(),
  checkpointId: z.string().optional(),
  traceId: z.string().optional(),
  tracePath: z.string().optional(),
});
