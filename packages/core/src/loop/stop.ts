import type { RunError, StopDetail, StopReason } from './run-types.js';

/**
 * How a run ends, as the loop or a mode strategy decides it; the result is assembled from it.
 *
 * @example
 * const stop: Stop = { reason: 'final', text: 'done' };
 */
export interface Stop {
  reason: StopReason;
  /** Reported as the result's `stopDetail`. */
  detail?: StopDetail;
  /** Model text only (see `RunResult.text`). */
  text: string;
  /** Why the run failed (`provider_error`); reported as the result's `error`. */
  error?: RunError;
  /**
   * Whether the session memory records this run (`last_prompt` / `last_response`). Default: yes,
   * unless the run was cancelled or the provider failed.
   */
  remember?: boolean;
  /** Recorded as `last_response` instead of `text`. */
  memoryText?: string;
  /** Steps the result reports, when not the steps the loop took (a plan shown without a model call). */
  steps?: number;
  approvalId?: string;
  checkpointId?: string;
}

/**
 * Whether the memory records a run that ended with `stop`.
 *
 * @example
 * remembers({ reason: 'cancelled', text: '' }); // false
 */
export function remembers(stop: Stop): boolean {
  return stop.remember ?? (stop.reason !== 'cancelled' && stop.reason !== 'provider_error');
}
