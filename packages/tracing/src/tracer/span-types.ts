/**
 * Kinds of span in a run's decision tree.
 *
 * @example
 * const kind: SpanKind = 'tool.call';
 */
export type SpanKind =
  | 'agent.run'
  | 'agent.step'
  | 'llm.call'
  | 'tool.call'
  | 'approval.pause'
  | 'approval.resume'
  | 'subagent.run';

/**
 * How a span ended.
 *
 * @example
 * span.end(cancelled ? 'cancelled' : 'ok');
 */
export type SpanStatus = 'ok' | 'error' | 'cancelled';

/**
 * Span attributes as they are set; `undefined` and `null` values are not stored.
 *
 * @example
 * span.setAttributes({ is_error: false, latency_ms: 12, error_type: undefined });
 */
export type SpanAttributes = Record<string, string | number | boolean | null | undefined>;

/**
 * Content a span may carry. The tracer never stores it as given: metadata mode keeps only keyed
 * hashes, keys and sizes (and skips the model's request and response), replay mode a redacted,
 * truncated copy — as `<name>_hash`, `<name>_keys`, `<name>_chars` and `<name>`.
 *
 * - `prompt` / `result_text`: the run's prompt and final text (on `agent.run`);
 * - `llm_request` / `llm_response`: what a model call sent and got back (on `llm.call`);
 * - `tool_arguments` / `tool_observation`: a tool call's arguments and the observation the model
 *   read (on `tool.call`).
 *
 * @example
 * const name: TracePayloadName = 'tool_arguments';
 */
export type TracePayloadName =
  | 'prompt'
  | 'result_text'
  | 'llm_request'
  | 'llm_response'
  | 'tool_arguments'
  | 'tool_observation';

/**
 * A started span. `end` is idempotent; calls after the run finished are ignored.
 *
 * @example
 * span.recordPayload('tool_arguments', call.arguments);
 * span.setAttributes({ is_error: false, latency_ms: 12 });
 * span.end('ok');
 */
export interface SpanHandle {
  readonly spanId: string;
  readonly traceId: string;
  setAttributes(attributes: SpanAttributes): void;
  addEvent(name: string, attributes?: SpanAttributes): void;
  /** Capture content under the tracer's privacy mode (see {@link TracePayloadName}). */
  recordPayload(name: TracePayloadName, value: unknown): void;
  end(status?: SpanStatus): void;
}
