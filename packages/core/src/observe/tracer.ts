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
 * span.end(signal.aborted ? 'cancelled' : 'ok');
 */
export type SpanStatus = 'ok' | 'error' | 'cancelled';

/**
 * Span attributes as core sets them; `undefined` and `null` values are not stored.
 *
 * @example
 * span.setAttributes({ is_error: false, latency_ms: 12, error_type: undefined });
 */
export type SpanAttributes = Record<string, string | number | boolean | null | undefined>;

/**
 * Content a span may carry. Core hands the raw value over and never decides how it is kept: the
 * tracer stores only hashes, keys and sizes (metadata mode, which skips the model's request and
 * response) or a redacted, truncated copy (replay mode), as `<name>_hash`, `<name>_keys`,
 * `<name>_chars` and `<name>`.
 *
 * - `prompt` / `result_text`: the run's prompt and final text (on `agent.run`);
 * - `llm_request` / `llm_response`: what a model call sent and got back (on `llm.call`);
 * - `tool_arguments` / `tool_observation`: a tool call's arguments and the observation the model saw
 *   (on `tool.call`).
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

/**
 * What a finished run's trace produced, if anything was written.
 *
 * @example
 * const where: TraceLocation | undefined = await tracer.finishRun(run, 'ok');
 */
export interface TraceLocation {
  traceId: string;
  tracePath?: string;
}

/**
 * Records spans of a run. Implemented by `@tiny-claw/tracing`; core ships {@link nullTracer}.
 * A span started without an explicit parent nests under the current span (see `withSpan`), which
 * is how a subagent started inside a tool lands under that `tool.call`.
 *
 * @example
 * const run = tracer.startRun('main', { mode: 'act' }, { sessionKey, runId });
 * const step = tracer.startSpan('agent.step', 'step.1', {}, run);
 * await tracer.withSpan(step, () => callModel());
 * step.end('ok');
 * const where = await tracer.finishRun(run, 'ok');
 */
export interface Tracer {
  startRun(
    name: string,
    attributes: SpanAttributes,
    context: { sessionKey: string; runId: string; sessionSource?: string },
  ): SpanHandle;
  startSpan(
    kind: SpanKind,
    name: string,
    attributes: SpanAttributes,
    parent?: SpanHandle,
  ): SpanHandle;
  /** Run `fn` with `span` as the current span for everything it starts or awaits. */
  withSpan<T>(span: SpanHandle, fn: () => T): T;
  /** The span set by the nearest enclosing `withSpan`, if any. */
  currentSpan(): SpanHandle | undefined;
  /** Finish the run's trace and persist it; resolves to where it went (undefined when off). */
  finishRun(run: SpanHandle, status: SpanStatus): Promise<TraceLocation | undefined>;
}

class NullSpan implements SpanHandle {
  constructor(
    readonly spanId: string,
    readonly traceId: string,
  ) {}
  setAttributes(): void {}
  addEvent(): void {}
  recordPayload(): void {}
  end(): void {}
}

/**
 * A tracer that records nothing. Spread it to build a test fake that overrides one method.
 *
 * @example
 * const loop = new MainLoop({ provider, tools, memory, tracer: nullTracer });
 */
export const nullTracer: Tracer = {
  startRun: (_name, _attributes, context) => new NullSpan('root', context.runId),
  startSpan: (_kind, _name, _attributes, parent) => new NullSpan('span', parent?.traceId ?? ''),
  withSpan: (_span, fn) => fn(),
  currentSpan: () => undefined,
  finishRun: async () => undefined,
};
