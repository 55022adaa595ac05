/**
 * @tiny-claw/tracing — every run as a JSON decision tree (agent.run → agent.step → llm.call /
 * tool.call), private by default: a tracer for `createAgent({ tracer })` built from the run's
 * event stream, capture modes with redaction by key and by value, a file recorder, and the readers
 * and renderers the CLI needs.
 *
 * @example
 * import { createTracer } from '@tiny-claw/tracing';
 * const agent = createAgent({ provider, tracer: createTracer({ stateDir, mode: 'metadata' }) });
 *
 * @module
 */

export { type SecretRule, secretRules, shannonEntropy } from '@tiny-claw/core/utils';
export { keyedHash } from './capture/keyed-hash.js';
export {
  capturePayload,
  type PayloadCaptureOptions,
  type TracePayloadName,
} from './capture/payload-capture.js';
export { Redactor } from './capture/redactor.js';
export {
  ATTRIBUTE_MAX_CHARS,
  type SanitizeOptions,
  sanitizeAttributes,
  sanitizeText,
  toTraceValue,
  truncateText,
} from './capture/sanitize.js';
export { loadTraceSalt, TRACE_SALT_FILE } from './capture/trace-salt.js';
export {
  type CreateTracerOptions,
  createTracer,
  DEFAULT_MAX_PAYLOAD_CHARS,
  type TraceMode,
} from './create-tracer.js';
export { TRACE_ID_PATTERN, traceDirectory, tracePath } from './recorder/trace-paths.js';
export {
  type ListTracesOptions,
  listTraces,
  readTrace,
  resolveTraceRef,
  type TraceRef,
  type TraceSummary,
} from './recorder/trace-reader.js';
export { FileTraceRecorder, type TraceRecorder } from './recorder/trace-recorder.js';
export {
  costLabel,
  formatCost,
  formatDuration,
  type RenderHtmlOptions,
  type RenderTreeOptions,
  renderTraceHtml,
  renderTraceTree,
  type SpanFailure,
  type SpanTokens,
  spanCostUsd,
  spanDurationMs,
  spanFailure,
  spanTokens,
  type TraceStats,
  traceStats,
  traceStatsLine,
} from './render/index.js';
export {
  TRACE_SCHEMA_VERSION,
  type TraceAttributes,
  type TraceCaptureMode,
  type TraceEvent,
  type TraceJsonValue,
  type TraceSession,
  type TraceSpan,
  type TraceSpanStatus,
  type TraceTree,
  traceAttributesSchema,
  traceEventSchema,
  traceSpanSchema,
  traceSpanStatusSchema,
  traceTreeSchema,
} from './trace-schema.js';
