/**
 * @tiny-claw/approval — human approval for risky tool calls: the approval gate an agent pauses
 * with (`createApprovalGate`), the persisted approval and checkpoint records, their file and
 * memory stores, and the helpers front ends list and show requests with.
 *
 * @example
 * import { createApprovalGate } from '@tiny-claw/approval';
 * const approvals = createApprovalGate({ stateDir: '/home/me/.tiny-claw', assess });
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
export { type ListApprovalsQuery, listApprovals, readApproval } from './store/approval-queries.js';
export {
  type ApprovalFailure,
  type ApprovalRecord,
  type ApprovalStatus,
  approvalFailures,
  approvalRecordSchema,
  approvalStatuses,
  type Claimant,
} from './store/approval-record.js';
export type {
  ApprovalStore,
  ApprovalStores,
  CheckpointStore,
  ClaimTicket,
  ListApprovalsOptions,
} from './store/approval-store.js';
export { type CheckpointRecord, checkpointRecordSchema } from './store/checkpoint-record.js';
export { FileApprovalStore } from './store/file-approval-store.js';
export { FileCheckpointStore } from './store/file-checkpoint-store.js';
export { MemoryApprovalStore } from './store/memory-approval-store.js';
export { MemoryCheckpointStore } from './store/memory-checkpoint-store.js';
export { type PreImage, preImage } from './store/pre-image.js';
export {
  checkRecordId,
  newApprovalId,
  newCheckpointId,
  recordIdPattern,
  recordIdSchema,
} from './store/record-id.js';
export { toolCallHash } from './store/tool-call-hash.js';
