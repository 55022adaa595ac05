import type { TraceSpan } from '../trace-schema.js';
import { costLabel } from './format-cost.js';
import { spanCostUsd, spanTokens } from './span-facts.js';

/**
 * The cost a span's line shows in both viewers, or undefined when it shows none: a run (the root,
 * or a subagent's run) always shows its total, `cost=unknown` included; a model call shows its
 * price when it reported tokens or a price (a call without usage, like the echo provider's, has
 * nothing to price); other spans show none.
 *
 * @example
 * spanCostLabel(tree.root, { root: true }); // 'cost≈$0.0018'
 */
export function spanCostLabel(span: TraceSpan, { root }: { root: boolean }): string | undefined {
  const cost = spanCostUsd(span);
  if (root || span.kind === 'subagent.run') return costLabel(cost);
  if (span.kind === 'llm.call' && (spanTokens(span) || cost !== undefined)) return costLabel(cost);
  return undefined;
}
