import { performance } from 'node:perf_hooks';
import {
  type CompactionLevel,
  type CompactionOptions,
  compactForRequest,
} from '../context/compactor.js';
import { requestTokens, TokenCalibration } from '../context/token-budget.js';
import { ProviderError } from '../errors.js';
import { type Message, msg, type ToolDefinition } from '../messages.js';
import type { EventBus } from '../observe/event-bus.js';
import type { Logger } from '../observe/logger.js';
import { type PriceTable, priceCall } from '../observe/price-table.js';
import { countUsage } from '../observe/usage-totals.js';
import type { LLMProvider, LLMResponse, ToolChoice } from '../provider.js';
import { describeProviderError, errorTypeOf } from './error-names.js';
import { describeRunError, providerRunError } from './run-error.js';
import type { RunState } from './run-state.js';
import type { Stop } from './stop.js';
import { loopText } from './strings.js';

/** The loop's fixed parts a model call needs. */
export interface ModelTurnDeps {
  provider: LLMProvider;
  compaction: CompactionOptions;
  maxTokens: number | undefined;
  /** Prices for responses that come without a cost. */
  prices: PriceTable | undefined;
  events: EventBus;
  logger: Logger;
  signal: AbortSignal;
}

/**
 * Each run's correction of the token estimate, learnt from the input tokens its provider
 * reports; kept beside the run's state, not in it, since it is only a cache of what the provider
 * said and a resumed run learns it again in one call.
 */
const calibrations = new WeakMap<RunState, TokenCalibration>();

function calibrationOf(state: RunState): TokenCalibration {
  let calibration = calibrations.get(state);
  if (!calibration) {
    calibration = new TokenCalibration();
    calibrations.set(state, calibration);
  }
  return calibration;
}

/** The model answered (and the answer is in the history), or the run ends here. */
export type ModelTurn = { message: Message } | { stop: Stop };

/**
 * Ask the model once on a compacted copy of the history and append its answer. A context-length
 * error gets exactly one retry after an aggressive compaction; the stored history is never
 * compacted. A provider failure or a cancellation ends the run.
 *
 * @example
 * const turn = await modelTurn(state, deps, { tools, toolChoice: 'auto' });
 * if ('stop' in turn) return turn.stop;
 */
export async function modelTurn(
  state: RunState,
  deps: ModelTurnDeps,
  offer: { tools: ToolDefinition[]; toolChoice: ToolChoice },
): Promise<ModelTurn> {
  let response: LLMResponse;
  try {
    response = await ask(state, deps, offer, 'normal', 1);
  } catch (error) {
    const tooLong = error instanceof ProviderError && error.kind === 'context_length';
    if (!tooLong || deps.signal.aborted) return failed(state, deps, error);
    deps.logger.warn(
      'the model rejected the request as too long; retrying once after aggressive compaction',
    );
    try {
      response = await ask(state, deps, offer, 'aggressive', 2);
    } catch (retryError) {
      return failed(state, deps, retryError);
    }
  }
  state.model = response.model ?? state.model;
  const message = msg.assistant(response.message.content, response.message.toolCalls ?? []);
  state.messages.push(message);
  state.lastText = message.content;
  return { message };
}

async function ask(
  state: RunState,
  deps: ModelTurnDeps,
  offer: { tools: ToolDefinition[]; toolChoice: ToolChoice },
  level: CompactionLevel,
  attempt: number,
): Promise<LLMResponse> {
  const { events, provider, signal } = deps;
  const { runId, step } = state;
  const calibration = calibrationOf(state);
  const { messages, report } = compactForRequest(
    state.messages,
    deps.compaction,
    level,
    calibration.scale,
  );
  const compacted = report.changed || report.overBudget;
  if (compacted) {
    const log = `context compacted level=${report.level} original_chars=${report.originalChars} compacted_chars=${report.compactedChars} max_chars=${report.maxChars} original_tokens=${report.originalTokens} compacted_tokens=${report.compactedTokens} max_tokens=${report.maxTokens} token_scale=${report.tokenScale.toFixed(2)} masked_tool_results=${report.maskedToolResults} truncated_tool_results=${report.truncatedToolResults} protected_tool_results=${report.protectedToolResults} over_budget=${report.overBudget}`;
    if (report.overBudget) deps.logger.warn(log);
    else deps.logger.debug(log);
  }
  events.emit({
    type: 'model.start',
    runId,
    step,
    attempt,
    provider: provider.name,
    messages,
    tools: offer.tools,
    toolChoice: offer.toolChoice,
    ...(compacted ? { compaction: report } : {}),
  });
  const started = performance.now();
  const latency = () => Math.max(0, Math.round(performance.now() - started));
  try {
    const response = await provider.complete(
      {
        messages: [...messages],
        tools: offer.tools,
        toolChoice: offer.toolChoice,
        signal,
        ...(deps.maxTokens === undefined ? {} : { maxTokens: deps.maxTokens }),
      },
      { signal, onTextDelta: (text) => events.emit({ type: 'text.delta', runId, step, text }) },
    );
    const reported = response.usage?.inputTokens;
    if (reported !== undefined) calibration.observe(requestTokens(messages, offer.tools), reported);
    const model = response.model ?? provider.model ?? null;
    const costUsd =
      response.costUsd ??
      (response.usage && model !== null && deps.prices
        ? priceCall(deps.prices, model, response.usage)
        : undefined);
    countUsage(state, response.usage, costUsd);
    events.emit({
      type: 'model.response',
      runId,
      step,
      attempt,
      message: response.message,
      provider: response.provider,
      model,
      latencyMs: latency(),
      ...(response.usage ? { usage: response.usage } : {}),
      ...(costUsd === undefined ? {} : { costUsd }),
      ...(response.stopReason === undefined ? {} : { stopReason: response.stopReason }),
    });
    return response;
  } catch (error) {
    events.emit({
      type: 'model.error',
      runId,
      step,
      attempt,
      provider: provider.name,
      errorType: errorTypeOf(error),
      message: describeProviderError(error),
      cancelled: signal.aborted,
      latencyMs: latency(),
    });
    throw error;
  }
}

function failed(state: RunState, deps: ModelTurnDeps, error: unknown): ModelTurn {
  if (deps.signal.aborted) return { stop: { reason: 'cancelled', text: loopText.cancelled } };
  const runError = providerRunError(error);
  // The error is in the result: whoever shows the result shows it once.
  deps.logger.debug(describeRunError(runError));
  // The text stays the model's own: what it said last before the failure, if anything.
  return { stop: { reason: 'provider_error', text: state.lastText, error: runError } };
}
