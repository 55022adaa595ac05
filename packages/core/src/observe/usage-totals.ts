import type { RunState } from '../loop/run-state.js';
import { addUsage } from '../provider.js';
import type { RunEventListener } from './run-events.js';

/**
 * Adds every answered model call of the stream to the run's totals: tokens, and cost while every
 * call that reported usage had a price. Calls of nested runs (subagents) travel in the same stream,
 * so their tokens count toward the run that started them.
 *
 * @example
 * const bus = new EventBus([usageTotals(state)], logger);
 */
export function usageTotals(
  totals: Pick<RunState, 'usage' | 'costUsd' | 'unpricedCall'>,
): RunEventListener {
  return (event) => {
    if (event.type !== 'model.response') return;
    totals.usage = addUsage(totals.usage ?? undefined, event.usage) ?? null;
    if (event.costUsd !== undefined) totals.costUsd = (totals.costUsd ?? 0) + event.costUsd;
    else if (event.usage) totals.unpricedCall = true;
  };
}
