/**
 * @tiny-claw/core — an agent in a few lines: `createAgent` runs a ReAct loop over any
 * `LLMProvider` and the tools you give it (`defineTool`), under one tool policy, with one typed
 * event stream (`agent.stream`) and a store that keeps nothing on disk unless you pass a file store
 * (`createFileStore` from `@tiny-claw/workspace`). Also the protocol types and interfaces the other
 * tiny-claw packages implement, the `StateStore` among them.
 *
 * @example
 * import { createAgent, defineTool } from '@tiny-claw/core';
 * import { z } from 'zod';
 * const add = defineTool({ name: 'add', description: 'Add two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => String(a + b) });
 * const agent = createAgent({ provider, tools: [add] });
 * console.log((await agent.run('what is 2 + 3?')).text);
 *
 * @module
 */

export {
  Agent,
  type AgentResumeOptions,
  type AgentRunOptions,
  type AgentStateResumeOptions,
  type ResumeDecision,
} from './agent/agent.js';
export { type AgentOptions, createAgent } from './agent/create-agent.js';
export {
  assertPromptSize,
  MAX_PROMPT_BYTES,
  PromptTooLargeError,
} from './agent/prompt-limit.js';
export { type ToolPolicy, type ToolPolicyCode, toolPolicyCodes } from './agent/tool-policy.js';
export {
  type ApprovalDecision,
  ApprovalError,
  type ApprovalGate,
  type ApprovalGrant,
  type ApprovalRefusal,
  approvalRefusals,
  type ClaimedApproval,
} from './approval/approval-gate.js';
export type {
  LoadedProjectContext,
  ProjectContext,
  ProjectContextInput,
  SelectedSkill,
} from './context/project-context.js';
export {
  CancelledError,
  ConfigurationError,
  type ErrorCode,
  errorMessage,
  InputError,
  ProviderError,
  type ProviderErrorKind,
  StateError,
  TinyClawError,
  ToolError,
} from './errors.js';
export { describeRunError } from './loop/run-error.js';
export type {
  ApprovalRequestRef,
  BatchCall,
  BatchCallStatus,
  CallDecision,
  PendingBatch,
  PlanProgress,
  RunState,
} from './loop/run-state.js';
export { batchCallStatuses, RUN_STATE_VERSION, runStateSchema } from './loop/run-state.js';
export {
  type Phase,
  type RunError,
  type RunErrorKind,
  type RunMode,
  type RunResult,
  runErrorKinds,
  runModes,
  runResultSchema,
  type StopDetail,
  type StopReason,
  stopDetails,
  stopReasons,
} from './loop/run-types.js';
export {
  type JsonObject,
  type Message,
  messageSchema,
  msg,
  type Role,
  type ToolCall,
  type ToolDefinition,
  toolCallSchema,
} from './messages.js';
export { type LogFields, type Logger, type LogLevel, nullLogger } from './observe/logger.js';
export {
  findModelPrice,
  type ModelPrice,
  mergePriceTables,
  type PriceTable,
  priceCall,
  priceTableSchema,
} from './observe/price-table.js';
export {
  type ApprovalRequiredEvent,
  type ApprovalResumedEvent,
  type ModelErrorEvent,
  type ModelResponseEvent,
  type ModelStartEvent,
  type RunCaller,
  type RunEvent,
  type RunEventBase,
  type RunEventListener,
  type RunFinishEvent,
  type RunStartEvent,
  runCallers,
  type StepStartEvent,
  type TextDeltaEvent,
  type ToolEndEvent,
  type ToolStartEvent,
} from './observe/run-events.js';
export type { RunOutcome, TraceLocation, Tracer } from './observe/tracer.js';
export { type UsageEvent, type UsageRecorder, usageEventSchema } from './observe/usage.js';
export type { PlanSnapshot, PlanStore } from './plan/plan-files.js';
export { renderPlan } from './plan/plan-render.js';
export type { TodoItem } from './plan/todo-grammar.js';
export {
  addUsage,
  type CompleteOptions,
  type LLMProvider,
  type LLMRequest,
  type LLMResponse,
  type LLMUsage,
  type ToolChoice,
} from './provider.js';
export { cliSession, resolveSession } from './session/resolve-session.js';
export { validateSessionName } from './session/session-key.js';
export {
  type SessionRef,
  type SessionSource,
  sessionSourceSchema,
} from './session/session-ref.js';
export type {
  ApprovalFailure,
  ApprovalRecord,
  ApprovalStatus,
  Claimant,
  ClaimTicket,
} from './store/approval-record.js';
export type {
  ApprovalStore,
  CheckpointStore,
  ListApprovalsOptions,
} from './store/approval-store.js';
export type { CheckpointRecord } from './store/checkpoint-record.js';
export type { Lease, LeaseStore } from './store/lease-store.js';
export { createMemoryStore, type MemoryStoreOptions } from './store/memory-state-store.js';
export type { SeenKeys } from './store/seen-keys.js';
export type { AgentStore, ApprovalStores, RunMemory, StateStore } from './store/state-store.js';
export type { ListTracesQuery, TraceEntry, TraceIndex } from './store/trace-index.js';
export {
  type AvailableTool,
  defineTool,
  describeZodError,
  type FailureKind,
  failureKinds,
  type SubagentHost,
  type SubagentRequest,
  type SuspendedRequest,
  type Tool,
  ToolArgumentsError,
  type ToolCarry,
  type ToolContext,
  type ToolExecutionContext,
  type ToolExecutionResult,
  type ToolFailure,
  type ToolMiddleware,
  type ToolOutput,
  type ToolResult,
  type ToolSpec,
} from './tool.js';
export type { ToolMetadata } from './tool-metadata.js';
