/** Kinds of span in a run's decision tree. */
export type SpanKind =
  | 'agent.run'
  | 'agent.step'
  | 'llm.call'
  | 'tool.call'
  | 'approval.pause'
  | 'approval.resume'
  | 'subagent.run';

export type SpanStatus = 'ok' | 'error' | 'cancelled';

export type SpanAttributes = Record<string, string | number | boolean | null | undefined>;

/** A started span. `end` is idempotent. */
export interface SpanHandle {
  readonly spanId: string;
  readonly traceId: string;
  setAttributes(attributes: SpanAttributes): void;
  addEvent(name: string, attributes?: SpanAttributes): void;
  end(status?: SpanStatus): void;
}

/** What a finished run's trace produced, if anything was written. */
export interface TraceLocation {
  traceId: string;
  tracePath?: string;
}

/**
 * Records spans of a run. Implemented by `@tiny-claw/tracing`; core ships {@link nullTracer}.
 *
 * @example
 * const run = tracer.startRun('main', { mode: 'act' });
 * const step = tracer.startSpan('agent.step', 'step.1', {}, run);
 */
export interface Tracer {
  startRun(
    name: string,
    attributes: SpanAttributes,
    context: { sessionKey: string; runId: string },
  ): SpanHandle;
  startSpan(
    kind: SpanKind,
    name: string,
    attributes: SpanAttributes,
    parent?: SpanHandle,
  ): SpanHandle;
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
  end(): void {}
}

/** A tracer that records nothing. */
export const nullTracer: Tracer = {
  startRun: (_name, _attributes, context) => new NullSpan('root', context.runId),
  startSpan: (_kind, _name, _attributes, parent) => new NullSpan('span', parent?.traceId ?? ''),
  finishRun: async () => undefined,
};
