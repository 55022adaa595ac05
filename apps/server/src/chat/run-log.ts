import { performance } from 'node:perf_hooks';
import type { Logger, RunEvent, RunEventListener, ToolEndEvent } from '@tiny-claw/core';

/** What the log says about where a run came from (never what was said). */
export interface RunLogContext {
  chatId: string;
  /** The chat message or card that started the run. */
  messageId: string;
}

/**
 * How a tool call ended, as the log says it: `ok`, `failed`, `denied` (refused by policy or the
 * approval gate), `blocked` (a repeated failing call answered without running it), or
 * `awaiting_approval`.
 *
 * @example
 * const outcome: ToolOutcome = 'awaiting_approval';
 */
export type ToolOutcome = 'ok' | 'failed' | 'denied' | 'blocked' | 'awaiting_approval';

/**
 * Log one chat run from its event stream: at `info` a line when it starts and one when it ends
 * (chat id, session key, run id, steps, stop reason, tool calls, tokens, cost when known,
 * duration), and one per approval requested or decided (approval id, tool, the decision and the
 * open id of who decided); at `debug` one line per tool call, the explorer's included (tool,
 * duration, outcome). Never a prompt, an answer, a message, a tool's arguments or its output —
 * only ids, names, counts and outcomes.
 *
 * @example
 * await app.run({ prompt, session, onEvent: runLog(logger, { chatId, messageId }) });
 */
export function runLog(
  logger: Logger,
  context: RunLogContext,
  now: () => number = () => performance.now(),
): RunEventListener {
  let runId: string | undefined;
  let sessionKey: string | undefined;
  let startedAt = 0;
  let toolCalls = 0;
  /** Nested runs (the explorer's) and the run each belongs to. */
  const parents = new Map<string, string>();
  const where = () => ({ chat_id: context.chatId, session_key: sessionKey, run_id: runId });

  return (event: RunEvent) => {
    if (event.type === 'run.start') {
      if (event.parent !== undefined) {
        if (event.parent.runId === runId || parents.has(event.parent.runId))
          parents.set(event.runId, event.parent.runId);
        return;
      }
      if (runId !== undefined) return;
      runId = event.runId;
      sessionKey = event.session.key;
      startedAt = now();
      logger.info('run started', {
        ...where(),
        message_id: context.messageId,
        caller: event.caller,
        mode: event.mode,
        max_steps: event.maxSteps,
        provider: event.provider,
        model: event.model,
      });
      return;
    }
    if (event.type === 'tool.end' && parents.has(event.runId)) {
      logger.debug('tool call', {
        ...where(),
        run_id: event.runId,
        parent_run_id: parents.get(event.runId),
        ...toolFields(event),
      });
      return;
    }
    if (runId === undefined || event.runId !== runId) return;
    switch (event.type) {
      case 'tool.start':
        toolCalls += 1;
        return;
      case 'tool.end':
        logger.debug('tool call', { ...where(), ...toolFields(event) });
        return;
      case 'approval.required':
        logger.info('approval requested', {
          ...where(),
          approval_id: event.approvalId,
          tool: event.call.name,
        });
        return;
      case 'approval.resumed':
        logger.info('approval decided', {
          ...where(),
          approval_id: event.approvalId,
          tool: event.call.name,
          decision: event.decision === 'approve' ? 'approved' : 'rejected',
          decided_by: event.actor,
          wait_ms: event.waitMs,
        });
        return;
      case 'run.finish': {
        const { result } = event;
        logger.info('run finished', {
          ...where(),
          stop_reason: result.stopReason,
          stop_detail: result.stopDetail,
          steps: result.steps,
          max_steps: result.maxSteps,
          tool_calls: toolCalls,
          input_tokens: result.usage?.inputTokens ?? 0,
          output_tokens: result.usage?.outputTokens ?? 0,
          // Sums of float prices carry noise (0.0006000000000000001); a tenth of a micro-cent is plenty.
          cost_usd: result.costUsd === undefined ? undefined : Number(result.costUsd.toFixed(10)),
          duration_ms: Math.round(now() - startedAt),
          approval_id: result.approvalId,
        });
        return;
      }
      default:
        return;
    }
  };
}

function toolFields(event: ToolEndEvent) {
  const outcome = toolOutcome(event);
  return {
    step: event.step,
    tool: event.call.name,
    duration_ms: event.latencyMs,
    outcome,
    failure: outcome === 'failed' ? (event.output.failure?.kind ?? 'error') : undefined,
  };
}

function toolOutcome(event: ToolEndEvent): ToolOutcome {
  if (event.status === 'suspended') return 'awaiting_approval';
  if (event.status === 'denied') return event.blocked ? 'blocked' : 'denied';
  return event.output.isError ? 'failed' : 'ok';
}
