/**
 * @tiny-claw/approval — human approval for risky tool calls: the risk policy, the approval gate an
 * agent pauses with (`createApprovalGate`), and the helpers front ends list and show requests
 * with. The requests and paused runs' states are kept in a state store (`StateStore.approvals` and
 * `runStates`; their records and interfaces are `@tiny-claw/core`'s).
 *
 * @example
 * import { createApprovalGate } from '@tiny-claw/approval';
 * const approvals = createApprovalGate({ store: createFileStore('/home/me/.tiny-claw'), assess });
 *
 * @module
 */

export type {
  ApprovalAssessment,
  ApprovalAssessor,
  ApprovalRefusalCode,
} from './gate/approval-middleware.js';
export type { CanDecide } from './gate/claim-approval.js';
export { type ApprovalGateOptions, createApprovalGate } from './gate/create-approval-gate.js';
export { type AssessedCall, assessCall } from './risk/assess-call.js';
export {
  DEFAULT_APPROVAL_REQUIRED_TOOLS,
  type RiskPolicyOptions,
  type SandboxInForce,
} from './risk/risk-policy-options.js';
export type { RiskVerdict, Verdict } from './risk/risk-verdict.js';
export {
  type AnalyseShellOptions,
  analyseShellCommand,
  type ShellAnalysis,
} from './risk/shell/analyse-shell-command.js';
export { type AnalysisBudget, DEFAULT_ANALYSIS_BUDGET } from './risk/shell/analysis-budget.js';
export type { ShellProblem, ShellProblemKind } from './risk/shell/shell-problem.js';
export type { ShellRedirect } from './risk/shell/shell-redirect.js';
export type { ShellWord } from './risk/shell/shell-word.js';
export type {
  ShellAssignment,
  ShellPayload,
  SimpleCommand,
  SimpleCommandKind,
} from './risk/shell/simple-command.js';
export { judgeCallWithRules, type PolicyJudgement } from './rules/judge-with-rules.js';
export {
  loadRuleSet,
  type RuleFiles,
  readRulesFile,
} from './rules/load-rules.js';
export { matchesPathGlob } from './rules/path-glob.js';
export {
  proposeRules,
  type RuleProposal,
  type UnrememberableReason,
} from './rules/propose-rules.js';
export {
  type BashRule,
  describeRule,
  describeSource,
  type FileRule,
  type IgnoredRule,
  type IgnoredRuleReason,
  NO_RULES,
  type PermissionRule,
  type RuleDecision,
  type RuleSet,
  type RuleSource,
  type SourcedRule,
} from './rules/rule-schema.js';
export { type ListApprovalsQuery, listApprovals, readApproval } from './store/approval-queries.js';
export { newApprovalId, newCheckpointId } from './store/new-record-id.js';
export { type PreImage, preImage } from './store/pre-image.js';
export { toolCallHash } from './store/tool-call-hash.js';
