import type { Message, ToolDefinition } from './messages.js';

/** Whether the model may call tools on this request. */
export type ToolChoice = 'auto' | 'none';

/** What the loop asks a provider. Carries nothing about sessions or tracing. */
export interface LLMRequest {
  messages: Message[];
  tools: ToolDefinition[];
  toolChoice: ToolChoice;
  maxTokens?: number;
  signal?: AbortSignal;
}

/** Token counts of one call (or a run). */
export interface LLMUsage {
  /** Every prompt token, cached ones included (providers that report cache apart add it back). */
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
}

/** The provider's answer: one assistant message. */
export interface LLMResponse {
  message: Message;
  provider: string;
  model?: string;
  usage?: LLMUsage;
  stopReason?: string;
  /** Estimated cost of this call in USD, when a price is known (set by the usage tracker). */
  costUsd?: number;
}

/** Per-call options: a cancel signal and a sink for streamed text. */
export interface CompleteOptions {
  signal?: AbortSignal;
  onTextDelta?: (text: string) => void;
}

/**
 * A model behind one method. Providers throw `ProviderError` for failures.
 *
 * @example
 * const echo: LLMProvider = { name: 'echo', complete: async (req) => ({ ... }) };
 */
export interface LLMProvider {
  readonly name: string;
  readonly model?: string;
  complete(request: LLMRequest, options?: CompleteOptions): Promise<LLMResponse>;
}

/** Sum two usage records (missing optional counts stay missing unless either side has them). */
export function addUsage(a: LLMUsage | undefined, b: LLMUsage | undefined): LLMUsage | undefined {
  if (!a) return b ? { ...b } : undefined;
  if (!b) return { ...a };
  const sum: LLMUsage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  for (const key of ['cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
    if (a[key] !== undefined || b[key] !== undefined) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  return sum;
}
