/**
 * @tiny-claw/core — protocol types, the ReAct loop, run policy, the tool registry and executor,
 * sessions, memory and the observation interfaces every other package implements.
 *
 * @module
 */

export {
  AGENTS_MD_FILE,
  AGENTS_MD_MAX_CHARS,
  loadProjectInstructions,
  type ProjectInstructions,
  renderProjectInstructions,
} from './context/agents-md.js';
export {
  type CompactionLevel,
  type CompactionOptions,
  type CompactionReport,
  compactForRequest,
  DEFAULT_COMPACTION,
} from './context/compactor.js';
export {
  type BuildContextInput,
  type BuiltContext,
  ContextBuilder,
  MEMORY_MAX_CHARS,
  renderMemory,
  type SelectedSkill,
} from './context/context-builder.js';
export {
  type FrontmatterValue,
  frontmatterBool,
  frontmatterList,
  frontmatterString,
  type ParsedFrontmatter,
  parseFrontmatter,
} from './context/skills/frontmatter.js';
export {
  isSkillName,
  SKILL_FILE,
  SKILL_MAX_CHARS,
  SKILLS_DIR,
  type Skill,
  type SkillIssue,
  skillFromText,
} from './context/skills/skill.js';
export { discoverSkills, type SkillDiscovery } from './context/skills/skill-discovery.js';
export {
  ARGUMENTS_VARIABLE,
  applySkillSubstitutions,
  renderActiveSkill,
  renderSkillIndex,
  SKILL_DIR_VARIABLE,
} from './context/skills/skill-render.js';
export {
  MIN_AUTO_SCORE,
  type SkillSelection,
  scoreSkill,
  selectSkill,
} from './context/skills/skill-selection.js';
export { coreSystemPrompt } from './context/system-prompt.js';
export {
  CancelledError,
  ConfigurationError,
  type ErrorCode,
  errorMessage,
  ProviderError,
  type ProviderErrorKind,
  StateError,
  TinyClawError,
  ToolError,
} from './errors.js';
export {
  classifyFailure,
  type FailedCall,
  type FailureCategory,
  type FailureGuidance,
  renderFailure,
  translateFailure,
} from './executor/failure-guidance.js';
export {
  blockedCallOutput,
  canonicalJson,
  createFailureTracker,
  type FailureTracker,
  failureKey,
  loopBreakerMessage,
  REPEAT_FAILURE_BLOCK_ATTEMPT,
} from './executor/loop-breaker.js';
export { runWithLimit } from './executor/run-with-limit.js';
export {
  type BatchOutcome,
  type ExecuteBatchOptions,
  executeBatch,
} from './executor/tool-executor.js';
export {
  MAX_EMPTY_TURNS,
  MainLoop,
  type MainLoopOptions,
  RECENT_MEMORY_LINES,
  type RunOptions,
} from './loop/main-loop.js';
export type { RunMemory, RunMemoryFactory } from './loop/memory-port.js';
export { phaseForStep, toolPolicyForPhase } from './loop/run-policy.js';
export {
  type Phase,
  type RunMode,
  type RunResult,
  runModes,
  runResultSchema,
  type StopReason,
  stopReasons,
  type ToolPolicy,
} from './loop/run-types.js';
export {
  type JsonObject,
  jsonObjectSchema,
  type Message,
  messageSchema,
  msg,
  type Role,
  type ToolCall,
  type ToolDefinition,
  toolCallSchema,
  toolDefinitionSchema,
} from './messages.js';
export {
  currentModelCallScope,
  type ModelCaller,
  type ModelCallScope,
  modelCallers,
  withModelCallScope,
} from './observe/call-scope.js';
export { type ApprovalRequest, type Channel, notify } from './observe/channel.js';
export { FileUsageRecorder, usageFilePath } from './observe/file-usage-recorder.js';
export { type Logger, type LogLevel, nullLogger } from './observe/logger.js';
export {
  defaultPriceTable,
  findModelPrice,
  type ModelPrice,
  mergePriceTables,
  type PriceFile,
  type PriceTable,
  priceCall,
  priceTableSchema,
} from './observe/price-table.js';
export {
  nullTracer,
  type SpanAttributes,
  type SpanHandle,
  type SpanKind,
  type SpanStatus,
  type TraceLocation,
  type TracePayloadName,
  type Tracer,
} from './observe/tracer.js';
export {
  type UsageEvent,
  type UsageRecorder,
  usageEventSchema,
  usageSchema,
} from './observe/usage.js';
export { type UsageTrackingOptions, UsageTrackingProvider } from './observe/usage-tracking.js';
export * from './plan/index.js';
export {
  addUsage,
  type CompleteOptions,
  type LLMProvider,
  type LLMRequest,
  type LLMResponse,
  type LLMUsage,
  type ToolChoice,
} from './provider.js';
export * from './session/index.js';
export * from './store/index.js';
export {
  defineTool,
  describeZodError,
  type Tool,
  ToolArgumentsError,
  type ToolContext,
  type ToolExecutionContext,
  type ToolExecutionResult,
  type ToolMiddleware,
  type ToolOutput,
  toolDefinition,
} from './tool.js';
export type { ToolMetadata } from './tool-metadata.js';
export { ToolRegistry } from './tool-registry.js';
