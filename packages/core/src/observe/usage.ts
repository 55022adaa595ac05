import { z } from 'zod';
import { runCallers } from './run-events.js';

const tokenCount = z.number().int().nonnegative();

/**
 * Token counts of one call as written to the usage file (the six `LLMUsage` fields).
 *
 * @example
 * usageSchema.parse({ inputTokens: 829, outputTokens: 119, totalTokens: 948 });
 */
export const usageSchema = z.object({
  inputTokens: tokenCount,
  outputTokens: tokenCount,
  totalTokens: tokenCount,
  cacheReadTokens: tokenCount.optional(),
  cacheWriteTokens: tokenCount.optional(),
  reasoningTokens: tokenCount.optional(),
});

/**
 * One line of `<stateDir>/usage/model-calls.jsonl`: one model call, described by counts, names
 * and timings only — there is deliberately no field that could hold prompt or answer text.
 * Scope fields are null for calls made outside a model-call scope; `model`, `usage`, `toolCalls`
 * and `textChars` are null when the call failed; `costUsd` is null when the model is unpriced.
 *
 * @example
 * const event = usageEventSchema.parse(JSON.parse(line));
 * if (event.errorType === null) total += event.costUsd ?? 0;
 */
export const usageEventSchema = z.object({
  schemaVersion: z.literal(1),
  /** When the call started, UTC ISO 8601. */
  timestamp: z.iso.datetime(),
  sessionKey: z.string().nullable(),
  runId: z.string().nullable(),
  mode: z.string().nullable(),
  phase: z.string().nullable(),
  step: z.number().int().nullable(),
  caller: z.enum(runCallers).nullable(),
  /** The response's provider, or the wrapped provider's name when the call failed. */
  provider: z.string(),
  model: z.string().nullable(),
  usage: usageSchema.nullable(),
  costUsd: z.number().nonnegative().nullable(),
  latencyMs: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative().nullable(),
  textChars: z.number().int().nonnegative().nullable(),
  /** The error's `name`, or the `kind` of a `ProviderError`; null on success. */
  errorType: z.string().nullable(),
});

/**
 * One line of the usage file; see {@link usageEventSchema}.
 *
 * @example
 * const failed = (event: UsageEvent) => event.errorType !== null;
 */
export type UsageEvent = z.infer<typeof usageEventSchema>;

/**
 * Receives one event per model call. The usage tracker logs and swallows anything it throws, so
 * a broken recorder never fails a run.
 *
 * @example
 * const events: UsageEvent[] = [];
 * const recorder: UsageRecorder = { record: (event) => void events.push(event) };
 */
export interface UsageRecorder {
  record(event: UsageEvent): Promise<void> | void;
}
