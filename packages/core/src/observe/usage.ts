import { z } from 'zod';

export const usageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  cacheReadTokens: z.number().int().nonnegative().optional(),
  cacheWriteTokens: z.number().int().nonnegative().optional(),
  reasoningTokens: z.number().int().nonnegative().optional(),
});

/** One line of `usage/model-calls.jsonl`: a model call, never its prompt or answer. */
export const usageEventSchema = z.object({
  schemaVersion: z.literal(1),
  timestamp: z.string(),
  sessionKey: z.string().nullable(),
  runId: z.string().nullable(),
  mode: z.string().nullable(),
  phase: z.string().nullable(),
  step: z.number().int().nullable(),
  caller: z.string().nullable(),
  provider: z.string(),
  model: z.string().nullable(),
  usage: usageSchema.nullable(),
  latencyMs: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative().nullable(),
  textChars: z.number().int().nonnegative().nullable(),
  errorType: z.string().nullable(),
});

export type UsageEvent = z.infer<typeof usageEventSchema>;

/** Receives one event per model call. Implementations must not throw into the caller. */
export interface UsageRecorder {
  record(event: UsageEvent): Promise<void> | void;
}
