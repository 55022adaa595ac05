import { bashParts } from './bash-parts.js';
import type { ResolvedRiskPolicy } from './risk-policy-options.js';
import type { RiskFinding } from './risk-verdict.js';

/**
 * Judge a bash call: where it runs, what the shell analysis found, each simple command and each
 * redirection (see {@link bashParts}, which keeps them apart for the kept rules).
 *
 * @example
 * const findings = await judgeBashCall({ command: 'rm -rf build' }, policy);
 */
export async function judgeBashCall(
  args: Record<string, unknown>,
  policy: ResolvedRiskPolicy,
): Promise<RiskFinding[]> {
  const parts = await bashParts(args, policy, true);
  return [...parts.before, ...parts.commands.flatMap((part) => part.findings), ...parts.after];
}
