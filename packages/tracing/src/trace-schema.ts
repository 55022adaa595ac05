import { z } from 'zod';

/**
 * The trace file format version this package writes and reads.
 *
 * @example
 * if (tree.schema_version !== TRACE_SCHEMA_VERSION) throw new Error('unknown trace format');
 */
export const TRACE_SCHEMA_VERSION = 1;

/**
 * A JSON value as stored in span attributes (replay payloads may be nested).
 *
 * @example
 * const value: TraceJsonValue = { path: 'a.txt', lines: [1, 2] };
 */
export type TraceJsonValue =
  | string
  | number
  | boolean
  | null
  | TraceJsonValue[]
  | { [key: string]: TraceJsonValue };

/**
 * Span attributes after sanitising: never `undefined`, never a function, always JSON.
 *
 * @example
 * const attributes: TraceAttributes = { tool_name: 'read', is_error: false, latency_ms: 12 };
 */
export type TraceAttributes = Record<string, TraceJsonValue>;

/**
 * How a span ended. `cancelled` marks spans closed by an aborted run.
 *
 * @example
 * const failed = (span: TraceSpan) => span.status === 'error';
 */
export type TraceSpanStatus = 'ok' | 'error' | 'cancelled';

/**
 * What a trace file may contain: `metadata` (hashes, keys, sizes) or `replay` (redacted payloads).
 *
 * @example
 * if (tree.capture_mode === 'replay') console.log(tree.root.attributes.prompt);
 */
export type TraceCaptureMode = 'metadata' | 'replay';

/**
 * A point-in-time note on a span, e.g. `context.compacted`.
 *
 * @example
 * const event: TraceEvent = { timestamp: '2026-01-01T00:00:00.000000Z', name: 'context.compacted', attributes: {} };
 */
export interface TraceEvent {
  /** ISO-8601 timestamp. */
  timestamp: string;
  name: string;
  attributes: TraceAttributes;
}

/**
 * One node of the decision tree. Field names are snake_case so files stay byte-compatible with the
 * original implementation's schema v1.
 *
 * @example
 * const toolSpans = (step: TraceSpan) => step.children.filter((child) => child.kind === 'tool.call');
 */
export interface TraceSpan {
  /** 16 lower-case hex characters. */
  span_id: string;
  parent_id: string | null;
  /** `agent.run`, `agent.step`, `llm.call`, `tool.call`, `approval.pause`, `approval.resume`, `subagent.run`. */
  kind: string;
  name: string;
  /** ISO-8601 timestamp. */
  started_at: string;
  /** ISO-8601 timestamp; null only while a span is still open (never in a written file). */
  ended_at: string | null;
  status: TraceSpanStatus;
  attributes: TraceAttributes;
  events: TraceEvent[];
  /** Non-tool spans by creation order, then `tool.call` spans by `tool_call_index`. */
  children: TraceSpan[];
}

/**
 * The identity of the session a trace belongs to.
 *
 * @example
 * const session: TraceSession = { key: 'cli-1a2b3c4d5e6f-default', source: 'cli' };
 */
export interface TraceSession {
  key: string;
  source?: string;
}

/**
 * One run's trace file: `sessions/<key>/traces/<trace_id>.json`.
 *
 * @example
 * const tree: TraceTree = await readTrace(path);
 * console.log(tree.trace_id, tree.root.children.length);
 */
export interface TraceTree {
  schema_version: typeof TRACE_SCHEMA_VERSION;
  trace_id: string;
  session: TraceSession;
  capture_mode: TraceCaptureMode;
  root: TraceSpan;
}

const jsonValueSchema = z.json() as z.ZodType<TraceJsonValue>;

/**
 * Validates span attributes.
 *
 * @example
 * traceAttributesSchema.parse({ steps: 3 });
 */
export const traceAttributesSchema: z.ZodType<TraceAttributes> = z.record(
  z.string(),
  jsonValueSchema,
);

/**
 * Validates a span status.
 *
 * @example
 * traceSpanStatusSchema.parse('cancelled');
 */
export const traceSpanStatusSchema: z.ZodType<TraceSpanStatus> = z.enum([
  'ok',
  'error',
  'cancelled',
]);

/**
 * Validates an event on a span.
 *
 * @example
 * traceEventSchema.parse({ timestamp: '2026-01-01T00:00:00Z', name: 'x', attributes: {} });
 */
export const traceEventSchema: z.ZodType<TraceEvent> = z.object({
  timestamp: z.string(),
  name: z.string(),
  attributes: traceAttributesSchema,
});

/**
 * Validates one span and, recursively, its children.
 *
 * @example
 * const span = traceSpanSchema.parse(JSON.parse(text).root);
 */
export const traceSpanSchema: z.ZodType<TraceSpan> = z.lazy(() =>
  z.object({
    span_id: z.string().min(1),
    parent_id: z.string().min(1).nullable(),
    kind: z.string().min(1),
    name: z.string(),
    started_at: z.string(),
    ended_at: z.string().nullable(),
    status: traceSpanStatusSchema,
    attributes: traceAttributesSchema,
    events: z.array(traceEventSchema),
    children: z.array(traceSpanSchema),
  }),
);

/**
 * Validates a whole trace file (schema v1). Used by `readTrace`; renderers can trust its output.
 *
 * @example
 * const tree: TraceTree = traceTreeSchema.parse(JSON.parse(await readFile(path, 'utf8')));
 */
export const traceTreeSchema: z.ZodType<TraceTree> = z.object({
  schema_version: z.literal(TRACE_SCHEMA_VERSION),
  trace_id: z.string().min(1),
  session: z.object({ key: z.string().min(1), source: z.string().optional() }),
  capture_mode: z.enum(['metadata', 'replay']),
  root: traceSpanSchema,
});
