import type { RunState } from '../loop/run-state.js';
import { addUsage, type LLMUsage } from '../provider.js';

/** The totals of a run the model calls add to. */
export type UsageTotals = Pick<RunState, 'usage' | 'costUsd' | 'unpricedCall'>;

/**
 * Add one answered model call (or a finished child run's totals) to a run's totals: tokens, and
 * cost while every call that reported usage had a price. The loop calls it itself when a model
 * answers, and a calling run when its child run ends, so a child's tokens count toward the run
 * that started it; no event listener writes the run's state.
 *
 * @example
 * countUsage(state, response.usage, costUsd);
 */
export function countUsage(
  totals: UsageTotals,
  usage: LLMUsage | undefined,
  costUsd: number | undefined,
  options: { unpriced?: boolean } = {},
): void {
  totals.usage = addUsage(totals.usage ?? undefined, usage) ?? null;
  if (costUsd !== undefined) totals.costUsd = (totals.costUsd ?? 0) + costUsd;
  else if (usage) totals.unpricedCall = true;
  if (options.unpriced) totals.unpricedCall = true;
}
