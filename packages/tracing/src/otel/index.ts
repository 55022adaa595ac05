/**
 * @tiny-claw/tracing/otel — exports finished trace trees to any OTLP/HTTP collector under the
 * OpenTelemetry GenAI semantic conventions. Its own entry point so `@opentelemetry/*` is only loaded
 * when `TINY_CLAW_OTEL_ENDPOINT` is set: `await import('@tiny-claw/tracing/otel')`.
 *
 * @module
 */
export {
  AGENT_NAME,
  type GenAiMappingContext,
  type GenAiSpanShape,
  genAiProviderName,
  SUBAGENT_NAME,
  TINY_CLAW_ATTRIBUTE_PREFIX,
  toGenAiSpan,
} from './genai-mapping.js';
export { toOtelSpanId, toOtelTraceId } from './otel-ids.js';
export {
  createOtelTraceRecorder,
  DEFAULT_OTEL_SERVICE_NAME,
  DEFAULT_OTEL_TIMEOUT_MS,
  type OtelTraceRecorder,
  type OtelTraceRecorderOptions,
  otlpTracesUrl,
} from './otel-trace-recorder.js';
export { parseOtelHeaders } from './parse-otel-headers.js';
export { INSTRUMENTATION_SCOPE, traceTreeToReadableSpans } from './to-readable-spans.js';
