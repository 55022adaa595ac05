import type {
  Message,
  RunEvent,
  RunOutcome,
  RunResult,
  RunStartEvent,
  TraceLocation,
  Tracer,
} from '@tiny-claw/core';
import type { SpanHandle, SpanStatus } from './span-types.js';
import { toolResultAttributes } from './tool-result-attributes.js';
import type { TreeTracer } from './tree-tracer.js';

/** What one run's trace is made of while the run goes on. */
interface RunSpans {
  root: SpanHandle;
  mode: string;
  sessionKey: string;
  sessionSource: string;
  /** Set for a nested run (a subagent): its spans belong to the parent's trace. */
  nested: boolean;
  step: SpanHandle | undefined;
  /** A resumed run's `approval.resume` span: the calls answered right after the decision hang under it. */
  resume: SpanHandle | undefined;
  /** Open model calls by `<step>:<attempt>`. */
  models: Map<string, SpanHandle>;
  /**
   * Tool calls by `<step>:<index>` (kept after they end: a pause hangs under them). Not by call
   * id: a model may give two calls of one turn the same id, and each keeps its own span.
   */
  tools: Map<string, SpanHandle>;
  /** The latest tool call started with each call id: where a nested run (a subagent) hangs. */
  toolsByCallId: Map<string, SpanHandle>;
  /** The error type of the last failed model call, named on the root of a provider failure. */
  modelErrorType: string | undefined;
}

/**
 * Builds each run's decision tree from its event stream: `run.start` opens the `agent.run` root
 * (or, for a nested run, a `subagent.run` span under the parent's `tool.call`), `step.start` an
 * `agent.step`, `model.start`/`model.response` an `llm.call`, `tool.start`/`tool.end` a
 * `tool.call` (with an `approval.pause` child when the call waits for a person), and `finishRun`
 * closes the root and writes the tree. Parents are always explicit, so concurrent runs and
 * parallel tool calls never land in each other's trees.
 *
 * @example
 * const tracer = new EventTracer(new TreeTracer(options));
 * const agent = createAgent({ provider, tracer });
 */
export class EventTracer implements Tracer {
  readonly #spans: TreeTracer;
  readonly #runs = new Map<string, RunSpans>();

  constructor(spans: TreeTracer) {
    this.#spans = spans;
  }

  onEvent(event: RunEvent): void {
    if (event.type === 'run.start') {
      this.#start(event);
      return;
    }
    const run = this.#runs.get(event.runId);
    if (!run) return;
    switch (event.type) {
      case 'step.start':
        run.step?.end('ok');
        run.resume?.end('ok');
        run.resume = undefined;
        run.step = this.#spans.startSpan(
          'agent.step',
          `step.${event.step}`,
          {
            step: event.step,
            phase: event.phase,
            mode: run.mode,
            tool_policy: event.toolChoice,
            visible_tools: event.tools.length,
            message_count: event.messageCount,
          },
          run.root,
        );
        return;
      case 'model.start': {
        if (event.compaction) {
          const report = event.compaction;
          run.step?.addEvent('context.compacted', {
            level: report.level,
            original_chars: report.originalChars,
            compacted_chars: report.compactedChars,
            max_chars: report.maxChars,
            original_tokens: report.originalTokens,
            compacted_tokens: report.compactedTokens,
            max_tokens: report.maxTokens,
            token_scale: report.tokenScale,
            masked_tool_results: report.maskedToolResults,
            truncated_tool_results: report.truncatedToolResults,
            still_over_budget: report.overBudget,
          });
        }
        const span = this.#spans.startSpan(
          'llm.call',
          `llm.${event.provider}`,
          {
            provider: event.provider,
            message_count: event.messages.length,
            tool_choice: event.toolChoice,
            visible_tools: event.tools.map((tool) => tool.name).join(','),
          },
          run.step,
        );
        // The tracer decides what of it is kept (a redacted copy in replay mode, nothing in
        // metadata mode, where it is not even assembled).
        if (this.#spans.keepsPayload('llm_request')) {
          span.recordPayload('llm_request', newMessages(event.messages));
        }
        run.models.set(`${event.step}:${event.attempt}`, span);
        return;
      }
      case 'model.response': {
        const span = take(run.models, `${event.step}:${event.attempt}`);
        if (!span) return;
        const usage = event.usage;
        span.setAttributes({
          latency_ms: event.latencyMs,
          provider: event.provider,
          model: event.model,
          input_tokens: usage?.inputTokens,
          output_tokens: usage?.outputTokens,
          total_tokens: usage?.totalTokens,
          cache_read_tokens: usage?.cacheReadTokens,
          cache_write_tokens: usage?.cacheWriteTokens,
          reasoning_tokens: usage?.reasoningTokens,
          cost_usd: event.costUsd,
          tool_calls: event.message.toolCalls?.length ?? 0,
          text_chars: event.message.content.length,
        });
        if (this.#spans.keepsPayload('llm_response')) {
          span.recordPayload('llm_response', {
            content: event.message.content,
            toolCalls: event.message.toolCalls ?? [],
          });
        }
        span.end('ok');
        return;
      }
      case 'model.error': {
        run.modelErrorType = event.errorType;
        const span = take(run.models, `${event.step}:${event.attempt}`);
        span?.setAttributes({ latency_ms: event.latencyMs, error_type: event.errorType });
        span?.end(event.cancelled ? 'cancelled' : 'error');
        return;
      }
      case 'tool.start': {
        const { call } = event;
        const span = this.#spans.startSpan(
          'tool.call',
          `tool.${call.name}`,
          {
            tool_call_id: call.id,
            tool_name: call.name,
            tool_call_index: event.index,
            session_key: run.sessionKey,
            session_source: run.sessionSource,
            arguments_error: call.argumentsError === undefined ? undefined : true,
          },
          run.step ?? run.resume,
        );
        // Raw arguments go to the tracer, which keeps hashes only unless replay mode is on.
        span.recordPayload('tool_arguments', call.arguments);
        run.tools.set(toolKey(event), span);
        run.toolsByCallId.set(call.id, span);
        return;
      }
      case 'tool.end': {
        const span = run.tools.get(toolKey(event));
        if (!span) return;
        const { observation } = event;
        span.recordPayload('tool_observation', observation.content);
        span.setAttributes({
          ...toolResultAttributes(event),
          latency_ms: event.latencyMs,
          result_chars: observation.content.length,
        });
        // A pause is not a failure of the call: it ends ok, with an approval.pause child.
        span.end(observation.isError && event.status !== 'suspended' ? 'error' : 'ok');
        return;
      }
      case 'approval.resumed':
        run.resume = this.#spans.startSpan(
          'approval.resume',
          `approval.resume.${event.call.name}`,
          {
            approval_id: event.approvalId,
            checkpoint_id: event.checkpointId,
            decision: event.decision,
            actor: event.actor,
            wait_ms: event.waitMs,
            tool_call_id: event.call.id,
            tool_name: event.call.name,
          },
          run.root,
        );
        return;
      case 'approval.required': {
        const tool = run.tools.get(toolKey(event));
        tool?.setAttributes({ approval_id: event.approvalId, checkpoint_id: event.checkpointId });
        this.#spans
          .startSpan(
            'approval.pause',
            `approval.pause.${event.call.name}`,
            {
              approval_id: event.approvalId,
              checkpoint_id: event.checkpointId,
              tool_call_id: event.call.id,
              tool_name: event.call.name,
              reason: 'approval_required',
            },
            tool,
          )
          .end('ok');
        return;
      }
      default:
        return;
    }
  }

  async finishRun(runId: string, outcome: RunOutcome): Promise<TraceLocation | undefined> {
    const run = this.#runs.get(runId);
    if (!run) return undefined;
    this.#runs.delete(runId);
    let status: SpanStatus;
    if ('result' in outcome) {
      const { result } = outcome;
      status = spanStatusOf(result);
      run.root.setAttributes({
        stop_reason: result.stopReason,
        steps: result.steps,
        model: result.model,
        approval_id: result.approvalId,
        checkpoint_id: result.checkpointId,
        result_text_chars: result.text.length,
        error_type: result.stopReason === 'provider_error' ? run.modelErrorType : undefined,
      });
      run.root.recordPayload('result_text', result.text);
    } else {
      status = 'error';
      run.root.setAttributes({ error_type: errorTypeOf(outcome.error) });
    }
    run.step?.end(status);
    run.resume?.end(status);
    if (run.nested) {
      run.root.end(status);
      return undefined;
    }
    return this.#spans.finishRun(run.root, status);
  }

  #start(event: RunStartEvent): void {
    const attributes = {
      run_id: event.runId,
      mode: event.mode,
      max_steps: event.maxSteps,
      provider: event.provider,
      session_key: event.session.key,
      session_source: event.session.source,
      session_display_name: event.session.displayName,
      workdir: event.session.workdir,
      caller: event.caller,
    };
    const parent = event.parent ? this.#runs.get(event.parent.runId) : undefined;
    const root = event.parent
      ? this.#spans.startSpan(
          'subagent.run',
          'subagent.run',
          attributes,
          parent?.toolsByCallId.get(event.parent.toolCallId) ?? parent?.step,
        )
      : this.#spans.startRun(
          event.caller === 'approval_resume' ? 'approval_resume' : 'main',
          attributes,
          {
            sessionKey: event.session.key,
            runId: event.runId,
            sessionSource: event.session.source,
          },
        );
    root.recordPayload('prompt', event.prompt);
    this.#runs.set(event.runId, {
      root,
      mode: event.mode,
      sessionKey: event.session.key,
      sessionSource: event.session.source,
      nested: event.parent !== undefined,
      step: undefined,
      resume: undefined,
      models: new Map(),
      tools: new Map(),
      toolsByCallId: new Map(),
      modelErrorType: undefined,
    });
  }
}

/** How a run's root span ends: a pause and an exhausted budget are not failures. */
function spanStatusOf(result: RunResult): SpanStatus {
  switch (result.stopReason) {
    case 'cancelled':
      return 'cancelled';
    case 'final':
    case 'max_steps_exhausted':
    case 'approval_required':
      return 'ok';
    default:
      return 'error';
  }
}

/**
 * The messages after the last assistant turn: what is new to the model on this call. Capturing the
 * whole history on every call would make a trace grow with the square of the run's length.
 */
function newMessages(messages: readonly Message[]): Message[] {
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  return messages.slice(lastAssistant + 1);
}

/** Which tool span an event is about: its call's step and place in the turn. */
function toolKey(event: { step: number; index: number }): string {
  return `${event.step}:${event.index}`;
}

function take<K, V>(map: Map<K, V>, key: K): V | undefined {
  const value = map.get(key);
  map.delete(key);
  return value;
}

/** A short machine name for an error (its class name), never its message. */
function errorTypeOf(error: unknown): string {
  const name = error instanceof Error ? error.name : undefined;
  return typeof name === 'string' && /^[A-Za-z_][\w.]{0,99}$/.test(name) ? name : 'unknown';
}
