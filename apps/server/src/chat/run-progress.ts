import type {
  ApprovalRequiredEvent,
  ApprovalResumedEvent,
  RunEvent,
  RunEventListener,
} from '@tiny-claw/core';
import { argumentsInline } from './argument-preview.js';
import { chatText } from './chat-text.js';

/** Where {@link runProgress} sends what it makes of a run's events. */
export interface ProgressSink {
  /** One progress line (start, step and tool call, tool result). */
  line(text: string): void;
  /** A call paused for approval; the run waits for the returned promise before it ends. */
  approvalRequired(event: ApprovalRequiredEvent): void | Promise<void>;
  /** A resumed run starts from a decision. */
  resumed?(event: ApprovalResumedEvent): void;
}

/**
 * Turn a run's event stream into compact chat progress: a start line, one line per tool call
 * (prefixed with its step) and one per result (done, failed with its kind, refused, waiting for
 * approval). Text deltas and model details are left out, and so are the events of nested runs
 * (a subagent's): the chat follows the run it asked for. Tool output is never shown, only its
 * outcome.
 *
 * @example
 * await app.run({ prompt, session, onEvent: runProgress({ line: (l) => outbox.progress(l), approvalRequired: postCard }) });
 */
export function runProgress(sink: ProgressSink): RunEventListener {
  let runId: string | undefined;
  let step = 0;
  let maxSteps = 0;
  return (event: RunEvent) => {
    if (event.type === 'run.start') {
      if (runId !== undefined || event.parent !== undefined) return;
      runId = event.runId;
      maxSteps = event.maxSteps;
      if (event.caller === 'main_loop') sink.line(chatText.working(event.mode, event.maxSteps));
      return;
    }
    if (event.runId !== runId) return;
    switch (event.type) {
      case 'step.start':
        step = event.step;
        maxSteps = event.maxSteps;
        return;
      case 'tool.start':
        sink.line(
          `[${step}/${maxSteps}] → ${event.call.name}(${argumentsInline(event.call.arguments)})`,
        );
        return;
      case 'tool.end':
        sink.line(resultLine(event));
        return;
      case 'approval.required':
        return sink.approvalRequired(event);
      case 'approval.resumed':
        sink.resumed?.(event);
        return;
      default:
        return;
    }
  };
}

function resultLine(event: Extract<RunEvent, { type: 'tool.end' }>): string {
  const name = event.call.name;
  if (event.status === 'suspended') return `    ⏸ ${name} is waiting for approval`;
  if (event.status === 'denied')
    return `    ✗ ${name} was refused${event.blocked ? ' (repeated failing call)' : ''}`;
  if (event.output.isError)
    return `    ✗ ${name} failed (${event.output.failure?.kind ?? 'error'})`;
  return `    ✓ ${name} done (${event.latencyMs} ms)`;
}
