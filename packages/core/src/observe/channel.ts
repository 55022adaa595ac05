import type { Phase, RunMode, RunResult } from '../loop/run-types.js';
import type { ToolCall } from '../messages.js';
import type { ToolOutput } from '../tool.js';
import type { Logger } from './logger.js';

/** A request for a person to approve a tool call (delivered by the approval package). */
export interface ApprovalRequest {
  approvalId: string;
  sessionKey: string;
  toolName: string;
  summary: string;
  reasons: string[];
}

/**
 * Where progress of a run goes: a terminal, a chat. Every method is optional and may not throw
 * into the loop (the loop guards each call).
 *
 * @example
 * const channel: Channel = { onTextDelta: (t) => process.stderr.write(t) };
 */
export interface Channel {
  onStart?(event: {
    runId: string;
    prompt: string;
    mode: RunMode;
    maxSteps: number;
    provider: string;
  }): void;
  onStep?(event: { step: number; maxSteps: number; phase: Phase }): void;
  onTextDelta?(text: string): void;
  onAssistantMessage?(event: { step: number; text: string; toolCalls: number }): void;
  onToolCall?(event: { call: ToolCall; index: number }): void;
  onToolResult?(event: { call: ToolCall; index: number; output: ToolOutput }): void;
  onDone?(result: RunResult): void;
  requestApproval?(request: ApprovalRequest): Promise<{ delivered: boolean; detail: string }>;
}

type Callback = Exclude<keyof Channel, 'requestApproval'>;

/** Call one channel callback, logging (never propagating) anything it throws. */
export function notify<K extends Callback>(
  channel: Channel | undefined,
  logger: Logger,
  callback: K,
  ...args: Parameters<NonNullable<Channel[K]>>
): void {
  const fn = channel?.[callback] as ((...a: unknown[]) => void) | undefined;
  if (!fn) return;
  try {
    fn.apply(channel, args);
  } catch (error) {
    logger.warn(`channel callback failed callback=${callback} error=${String(error)}`);
  }
}
