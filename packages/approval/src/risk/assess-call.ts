import { judgeBashCall } from './judge-bash-call.js';
import { judgeFileCall } from './judge-file-call.js';
import { type RiskPolicyOptions, readRiskPolicyOptions } from './risk-policy-options.js';
import { approval, type RiskFinding, type RiskVerdict, verdictOf } from './risk-verdict.js';

/**
 * A tool call as the policy sees it.
 *
 * @example
 * const call: AssessedCall = { name: 'bash', arguments: { command: 'ls -la' } };
 */
export interface AssessedCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/**
 * Judge a tool call: `allow`, `approval_required` or `deny`, with one reason per finding.
 * Tools outside `requiredTools` are allowed; `bash` commands are read as shell programs (every
 * nested command, wrapper, redirection and payload judged, the strictest finding wins); `write`
 * and `edit` are checked for protected paths and large deletions; any other listed tool always
 * needs approval. Nothing is ever executed.
 *
 * @throws ConfigurationError when `options` are invalid.
 * @example
 * const verdict = await assessCall({ name: 'bash', arguments: { command: 'ls; rm -rf x' } }, { workdir: '/w' });
 * verdict.verdict; // 'deny'
 */
export async function assessCall(
  call: AssessedCall,
  options: RiskPolicyOptions,
): Promise<RiskVerdict> {
  const policy = readRiskPolicyOptions(options);
  if (!policy.requiredTools.includes(call.name)) return verdictOf([]);
  let findings: RiskFinding[];
  switch (call.name) {
    case 'bash':
      findings = await judgeBashCall(call.arguments, policy);
      break;
    case 'write':
    case 'edit':
      findings = judgeFileCall(call.name, call.arguments, policy);
      break;
    default:
      findings = [approval(`${call.name} is configured to need approval`)];
  }
  return verdictOf(findings);
}
