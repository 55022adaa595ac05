import type { Message, ToolCall, ToolDefinition } from '../messages.js';
import type { SpanHandle } from '../observe/tracer.js';
import type { RunMemory } from './memory-port.js';
import type { Phase, RunResult, ToolPolicy } from './run-types.js';

/** One model call of a step: what to offer and where to trace it. */
export interface ModelCallRequest {
  step: number;
  phase: Phase;
  tools: ToolDefinition[];
  toolChoice: ToolPolicy;
  span: SpanHandle;
}

/** How a run ends, beyond its reason, text and step count. */
export interface FinishOptions {
  /** The session memory to record the run in; absent = nothing is recorded. */
  memory?: RunMemory | undefined;
  /** Recorded as `last_response` instead of the result text. */
  memoryResponse?: string | undefined;
  approvalId?: string;
  checkpointId?: string;
  plan?: string | undefined;
}

/** A model turn that produced an answer, or the result the run ended with instead. */
export type Turn = { assistant: Message; calls: ToolCall[] } | { stopped: RunResult };
