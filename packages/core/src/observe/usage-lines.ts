import type { LLMUsage } from '../provider.js';
import type { RunCaller, RunEventListener } from './run-events.js';
import type { UsageEvent, UsageRecorder } from './usage.js';

interface RunScope {
  sessionKey: string;
  mode: string;
  caller: RunCaller;
  phase: string | null;
}

/**
 * Turns the model calls of a run's event stream into one {@link UsageEvent} per call, success or
 * failure, handed to `recorder`: counts, names and timings only, never prompt or answer text.
 * Nested runs (subagents) are recorded with their own session, mode and caller.
 *
 * @example
 * const bus = new EventBus([usageLines(new FileUsageRecorder(stateDir))], logger);
 */
export function usageLines(recorder: UsageRecorder): RunEventListener {
  const runs = new Map<string, RunScope>();
  const started = new Map<string, string>();
  const callKey = (runId: string, step: number, attempt: number) => `${runId}:${step}:${attempt}`;
  const scopeFields = (runId: string, step: number, key: string) => {
    const run = runs.get(runId);
    const timestamp = started.get(key) ?? new Date().toISOString();
    started.delete(key);
    return {
      schemaVersion: 1 as const,
      timestamp,
      sessionKey: run?.sessionKey ?? null,
      runId,
      mode: run?.mode ?? null,
      phase: run?.phase ?? null,
      step,
      caller: run?.caller ?? null,
    };
  };
  // Only the two model outcomes return a promise (the write): every other event stays synchronous.
  return (event) => {
    switch (event.type) {
      case 'run.start':
        runs.set(event.runId, {
          sessionKey: event.session.key,
          mode: event.mode,
          caller: event.caller,
          phase: null,
        });
        return;
      case 'step.start': {
        const run = runs.get(event.runId);
        if (run) run.phase = event.phase;
        return;
      }
      case 'model.start':
        started.set(callKey(event.runId, event.step, event.attempt), new Date().toISOString());
        return;
      case 'model.response': {
        const key = callKey(event.runId, event.step, event.attempt);
        const line: UsageEvent = {
          ...scopeFields(event.runId, event.step, key),
          provider: event.provider,
          model: event.model,
          usage: event.usage ? pickUsage(event.usage) : null,
          costUsd: event.costUsd ?? null,
          latencyMs: event.latencyMs,
          toolCalls: event.message.toolCalls?.length ?? 0,
          textChars: event.message.content.length,
          errorType: null,
        };
        return recorder.record(line);
      }
      case 'model.error': {
        const key = callKey(event.runId, event.step, event.attempt);
        return recorder.record({
          ...scopeFields(event.runId, event.step, key),
          provider: event.provider,
          model: null,
          usage: null,
          costUsd: null,
          latencyMs: event.latencyMs,
          toolCalls: null,
          textChars: null,
          errorType: event.errorType,
        });
      }
      case 'run.finish':
        runs.delete(event.runId);
        return;
      default:
        return;
    }
  };
}

/** Only the six known counts: a provider's extra fields must not ride along into the file. */
function pickUsage(usage: LLMUsage): LLMUsage {
  const picked: LLMUsage = {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens,
  };
  for (const key of ['cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
    if (usage[key] !== undefined) picked[key] = usage[key];
  }
  return picked;
}
