import { z } from 'zod';
import type { ProviderErrorKind } from '../errors.js';
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
 * Every {@link ProviderErrorKind}, then the failures that end a run without a provider error:
 * `empty_turns` (the model kept answering with nothing).
 *
 * @example
 * runErrorKinds.includes('rate_limit'); // true
 */
export const runErrorKinds = [
  'auth',
  'not_found',
  'bad_request',
  'context_length',
  'rate_limit',
  'server',
  'connection',
  'timeout',
  'incomplete_stream',
  'invalid_response',
  'unknown',
  'empty_turns',
] as const satisfies readonly (ProviderErrorKind | 'empty_turns')[];

/** One of {@link runErrorKinds}. */
export type RunErrorKind = (typeof runErrorKinds)[number];

/**
 * Why a run failed (stop reason `provider_error`): kept apart from `RunResult.text`, which holds
 * only what the model said.
 *
 * @example
 * if (result.error?.retryable) setTimeout(retry, 30_000);
 */
export interface RunError {
  /** The provider error's kind (`rate_limit`, `auth` …; `unknown` for an error of no known kind), or `empty_turns`. */
  kind: RunErrorKind;
  /** One line, without secrets; safe to show a person. */
  message: string;
  /** Whether the same request may succeed later (a rate limit, a server error), as the provider said. */
  retryable: boolean;
}

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
  /**
   * What the model said last: the answer of a `final` run. Only model text — empty when the model
   * said nothing; a failure is in {@link RunResult.error}, never here.
   */
  text: string;
  stopReason: StopReason;
  /** Why the run failed, set exactly when `stopReason` is `provider_error`. */
  error?: RunError;
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
  // Optional: results saved before it existed carried the failure in `text`.
  error: z
    .object({ kind: z.enum(runErrorKinds), message: z.string(), retryable: z.boolean() })
    .optional(),
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
