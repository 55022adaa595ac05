import type { ToolCall } from '../messages.js';
import type { FailureKind, ToolFailure, ToolOutput } from '../tool.js';
import { guidanceLabels, guidanceText } from './strings.js';

/**
 * What the model should do about one failed call.
 *
 * @example
 * const g: FailureGuidance = classifyFailure({ call, output, visibleTools: ['lookup'] });
 * g.kind; // 'not_found'
 */
export interface FailureGuidance {
  kind: FailureKind;
  summary: string;
  nextAction: string;
  avoid: string;
  retryable: boolean;
  /** The tool the model should call next, when there is an obvious one it can see. */
  suggestedTool?: string;
}

/**
 * A failed call as the executor saw it.
 *
 * @example
 * const input: FailedCall = { call, output: { content: 'boom', isError: true }, visibleTools: [] };
 */
export interface FailedCall {
  call: ToolCall;
  output: ToolOutput;
  visibleTools: readonly string[];
}

/**
 * Guidance for a failed call, from its typed failure alone: the kind picks the summary and what to
 * avoid, the tool's own advice (or the kind's generic advice) says what to do next. A call to a
 * tool the model cannot see is always `unknown_tool`; an output without a failure is an
 * `execution_error`. The message text is never inspected.
 *
 * @example
 * classifyFailure({
 *   call: { id: '1', name: 'lookup', arguments: { city: 'Atlantis' } },
 *   output: { content: 'no such city', isError: true, failure: { kind: 'not_found', advice: 'Try a real city.' } },
 *   visibleTools: ['lookup'],
 * }).nextAction; // 'Try a real city.'
 */
export function classifyFailure(failed: FailedCall): FailureGuidance {
  const { call, output, visibleTools } = failed;
  const visible = visibleTools.includes(call.name);
  const kind: FailureKind = visible ? (output.failure?.kind ?? 'execution_error') : 'unknown_tool';
  if (kind === 'unknown_tool') {
    return {
      kind,
      summary: guidanceText.unknown_tool.summary(call.name),
      nextAction: guidanceText.unknown_tool.next(visibleTools),
      avoid: guidanceText.unknown_tool.avoid,
      retryable: visibleTools.length > 0,
    };
  }
  const text = guidanceText[kind];
  const advice = output.failure?.advice?.trim();
  const suggested = output.failure?.suggestedTool;
  const guidance: FailureGuidance = {
    kind,
    summary: text.summary,
    nextAction: advice || text.next,
    avoid: text.avoid,
    retryable: true,
  };
  // A suggestion the model cannot follow would send it straight into an unknown-tool error.
  if (suggested !== undefined && visibleTools.includes(suggested)) {
    guidance.suggestedTool = suggested;
  } else if (suggested === undefined) {
    guidance.suggestedTool = call.name;
  }
  return guidance;
}

/**
 * Render the observation the model reads: summary, raw error, next step, what to avoid, the
 * attempt number and, from the second failure of the same call on, a repeat warning.
 *
 * @example
 * renderFailure(guidance, 'no such city: Atlantis', 2);
 * // 'Tool failed: the target does not exist\n\nError:\nno such city: Atlantis\n\n…'
 */
export function renderFailure(
  guidance: Pick<FailureGuidance, 'summary' | 'nextAction' | 'avoid'>,
  rawError: string,
  attempt: number,
): string {
  const error = rawError.trim() || guidanceLabels.emptyError;
  const parts = [
    `${guidanceLabels.failed} ${guidance.summary}`,
    `${guidanceLabels.error}\n${error}`,
    `${guidanceLabels.next}\n${guidance.nextAction}`,
    `${guidanceLabels.avoid}\n${guidance.avoid}`,
    `${guidanceLabels.attempt} ${attempt}`,
  ];
  if (attempt >= 2) parts.push(`${guidanceLabels.repeat}\n${guidanceLabels.repeatBody}`);
  return parts.join('\n\n');
}

/**
 * Turn a failed tool output into the observation the model reads: the guidance as content, and
 * one failure carrying the kind, the tool's own `code`, the advice given and the executor's
 * verdict (`retryable`, `attempt`). The tool's metadata is passed on as it was.
 *
 * @example
 * const { output } = translateFailure({ call, output: raw, visibleTools }, 1);
 * output.failure; // { kind: 'not_found', code: 'city_missing', advice: '…', retryable: true, attempt: 1 }
 */
export function translateFailure(
  failed: FailedCall,
  attempt: number,
): { output: ToolOutput; guidance: FailureGuidance } {
  const guidance = classifyFailure(failed);
  const code = failed.output.failure?.code;
  const failure: ToolFailure = {
    kind: guidance.kind,
    ...(code === undefined ? {} : { code }),
    advice: guidance.nextAction,
    ...(guidance.suggestedTool === undefined ? {} : { suggestedTool: guidance.suggestedTool }),
    retryable: guidance.retryable,
    attempt,
  };
  const output: ToolOutput = {
    content: renderFailure(guidance, failed.output.content, attempt),
    isError: true,
    failure,
  };
  if (failed.output.metadata !== undefined) output.metadata = failed.output.metadata;
  return { output, guidance };
}
