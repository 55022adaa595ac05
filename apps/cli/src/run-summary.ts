import type { RunResult } from '@tiny-claw/core';
import { costLabel } from '@tiny-claw/tracing';

/**
 * The line `run` (and a decision that continues a run) ends with on stderr: stop reason, steps,
 * session, the approval it waits for, tokens, the estimated cost and the trace path. The cost is
 * `cost≈$0.0123` when every model call that reported tokens had a price, else `cost=unknown` —
 * also for a run no call of which reported tokens (the echo provider's), which nothing priced.
 *
 * @example
 * out.stderr(`${runSummary(result)}\n`);
 * // tiny-claw · stop=final · steps=2/20 · session=cli-1a2b3c4d5e6f-default · tokens=1000 in / 100 out · cost≈$0.0028 · trace=…
 */
export function runSummary(result: RunResult): string {
  const parts = [
    `stop=${result.stopReason}`,
    `steps=${result.steps}/${result.maxSteps}`,
    `session=${result.sessionKey}`,
  ];
  if (result.approvalId) parts.push(`approval=${result.approvalId}`);
  if (result.usage)
    parts.push(`tokens=${result.usage.inputTokens} in / ${result.usage.outputTokens} out`);
  parts.push(costLabel(result.costUsd));
  if (result.tracePath) parts.push(`trace=${result.tracePath}`);
  return `tiny-claw · ${parts.join(' · ')}`;
}
