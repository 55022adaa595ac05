import {
  type CompactionLevel,
  type CompactionOptions,
  compactForRequest,
} from '../context/compactor.js';
import { ProviderError } from '../errors.js';
import type { Message, ToolDefinition } from '../messages.js';
import { type ModelCallScope, withModelCallScope } from '../observe/call-scope.js';
import type { Logger } from '../observe/logger.js';
import type { SpanHandle } from '../observe/tracer.js';
import type { LLMProvider, LLMResponse } from '../provider.js';
import type { ToolPolicy } from './run-types.js';

/** What one model call offers and where it is traced and scoped. */
export interface ModelCall {
  history: readonly Message[];
  tools: ToolDefinition[];
  toolChoice: ToolPolicy;
  span: SpanHandle;
  /** Out-of-band scope for usage tracking (session, run, mode, phase, step, caller). */
  scope: Omit<ModelCallScope, 'parentSpan'>;
  signal: AbortSignal;
  onTextDelta: (text: string) => void;
}

/** The loop's fixed parts a model call needs. */
export interface ModelCallDeps {
  provider: LLMProvider;
  compaction: CompactionOptions;
  maxTokens: number | undefined;
  logger: Logger;
}

/**
 * One model call on a compacted copy of the history. A context-length error gets exactly one
 * retry after an aggressive compaction; the stored history is never changed.
 *
 * @example
 * const response = await callModel(deps, { history, tools, toolChoice: 'auto', span, scope, signal, onTextDelta });
 */
export async function callModel(deps: ModelCallDeps, call: ModelCall): Promise<LLMResponse> {
  const attempt = (level: CompactionLevel) => {
    const { messages, report } = compactForRequest(call.history, deps.compaction, level);
    if (report.changed || report.overBudget) {
      call.span.addEvent('context.compacted', {
        level: report.level,
        original_chars: report.originalChars,
        compacted_chars: report.compactedChars,
        max_chars: report.maxChars,
        masked_tool_results: report.maskedToolResults,
        truncated_tool_results: report.truncatedToolResults,
        still_over_budget: report.overBudget,
      });
      const log = `context compacted level=${report.level} original_chars=${report.originalChars} compacted_chars=${report.compactedChars} max_chars=${report.maxChars} masked_tool_results=${report.maskedToolResults} truncated_tool_results=${report.truncatedToolResults} over_budget=${report.overBudget}`;
      if (report.overBudget) deps.logger.warn(log);
      else deps.logger.debug(log);
    }
    return withModelCallScope({ ...call.scope, parentSpan: call.span }, () =>
      deps.provider.complete(
        {
          messages: [...messages],
          tools: call.tools,
          toolChoice: call.toolChoice,
          signal: call.signal,
          ...(deps.maxTokens === undefined ? {} : { maxTokens: deps.maxTokens }),
        },
        { signal: call.signal, onTextDelta: call.onTextDelta },
      ),
    );
  };
  try {
    return await attempt('normal');
  } catch (error) {
    const tooLong = error instanceof ProviderError && error.kind === 'context_length';
    if (!tooLong || call.signal.aborted) throw error;
    deps.logger.warn(
      'the model rejected the request as too long; retrying once after aggressive compaction',
    );
    return attempt('aggressive');
  }
}
