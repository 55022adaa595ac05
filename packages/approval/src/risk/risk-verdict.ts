/**
 * The three outcomes of judging a tool call, from least to most strict.
 *
 * @example
 * const verdict: Verdict = 'approval_required';
 */
export type Verdict = 'allow' | 'approval_required' | 'deny';

/**
 * The policy's answer for one tool call: the strictest verdict of all findings, and one English
 * reason per finding (none for `allow`).
 *
 * @example
 * const verdict: RiskVerdict = { verdict: 'deny', reasons: ['deletes files recursively (`rm -rf x`)'] };
 */
export interface RiskVerdict {
  verdict: Verdict;
  reasons: string[];
}

/**
 * One thing the policy found about a call.
 *
 * @example
 * const finding: RiskFinding = { level: 'approval_required', reason: 'uses the network (`curl x`)' };
 */
export interface RiskFinding {
  readonly level: Exclude<Verdict, 'allow'>;
  readonly reason: string;
}

/**
 * A finding that needs a person's approval.
 *
 * @example
 * approval('stops processes (`kill 1`)');
 */
export function approval(reason: string): RiskFinding {
  return { level: 'approval_required', reason };
}

/**
 * A finding that refuses the call outright.
 *
 * @example
 * deny('writes into the .git directory (`> .git/config`)');
 */
export function deny(reason: string): RiskFinding {
  return { level: 'deny', reason };
}

/**
 * Combine findings: deny beats approval beats allow; reasons keep their order, refusals first,
 * each reason once.
 *
 * @example
 * verdictOf([approval('a'), deny('b'), approval('a')]); // { verdict: 'deny', reasons: ['b', 'a'] }
 */
export function verdictOf(findings: readonly RiskFinding[]): RiskVerdict {
  const denied = findings.filter((finding) => finding.level === 'deny');
  const ordered = [...denied, ...findings.filter((finding) => finding.level !== 'deny')];
  const reasons = [...new Set(ordered.map((finding) => finding.reason))];
  const verdict: Verdict =
    denied.length > 0 ? 'deny' : findings.length > 0 ? 'approval_required' : 'allow';
  return { verdict, reasons };
}
