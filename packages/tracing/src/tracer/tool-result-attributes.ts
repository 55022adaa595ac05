import { type ToolEndEvent, toolPolicyCodes } from '@tiny-claw/core';
import type { SpanAttributes } from './span-types.js';

/**
 * The attributes a finished tool call sets on its `tool.call` span, read from the event's typed
 * fields: the observation's failure (with the executor's verdict) and whether the call was
 * blocked, and the remote server that answered (`tool_server`, an MCP server's name). Trace files
 * are a public format, so the words are the ones traces have always used.
 *
 * @example
 * span.setAttributes({ ...toolResultAttributes(event), latency_ms: event.latencyMs });
 */
export function toolResultAttributes(event: ToolEndEvent): SpanAttributes {
  const { observation } = event;
  const failure = observation.failure;
  // The executor's verdict is on the failure only when it judged the call.
  const judged = failure?.attempt !== undefined;
  return {
    is_error: observation.isError,
    denied: event.status === 'denied',
    suspended: event.status === 'suspended',
    blocked: event.blocked || undefined,
    doom_loop_detected: event.blocked,
    error_type: errorType(event),
    retryable: failure?.retryable,
    suggested_tool: judged ? failure?.suggestedTool : undefined,
    attempt: failure?.attempt,
    // The remote server that answered (an MCP server), when the tool says so.
    tool_server: event.output.server,
  };
}

/**
 * The `error_type` of a finished call: `approval_required` for a pause; for a failure the
 * executor judged, its kind (a blocked repeat: the breaker's code, `repeat_call_blocked`); for a
 * call the agent's tool policy refused, `denied`; for any other refusal or failure (the approval
 * gate's, a call cut short by cancellation), the code its author gave, or none.
 */
function errorType(event: ToolEndEvent): string | undefined {
  if (event.status === 'suspended') return 'approval_required';
  const failure = event.observation.failure;
  if (failure === undefined) return undefined;
  if (event.blocked) return failure.code;
  if (failure.attempt !== undefined) return failure.kind;
  if (event.status === 'denied' && isPolicyCode(failure.code)) return failure.kind;
  return failure.code;
}

function isPolicyCode(code: string | undefined): boolean {
  return toolPolicyCodes.some((policyCode) => policyCode === code);
}
