/**
 * What `import('@tiny-claw/tracing/otel')` loads from the published package: it first checks that
 * the optional OpenTelemetry peer dependencies are installed, failing with an error that names
 * them, and only then loads the exporter (`./index.js`, whose declarations the entry's types are).
 * The sources and the bundled CLI use `./index.ts` directly, where the packages are always present.
 */
import { assertOtelPackagesInstalled } from './otel-peer-check.js';

assertOtelPackagesInstalled((specifier) => import.meta.resolve(specifier));

export const {
  AGENT_NAME,
  createOtelTraceRecorder,
  DEFAULT_OTEL_SERVICE_NAME,
  DEFAULT_OTEL_TIMEOUT_MS,
  genAiProviderName,
  INSTRUMENTATION_SCOPE,
  otlpTracesUrl,
  parseOtelHeaders,
  SUBAGENT_NAME,
  TINY_CLAW_ATTRIBUTE_PREFIX,
  toGenAiSpan,
  toOtelSpanId,
  toOtelTraceId,
  traceTreeToReadableSpans,
} = await import('./index.js');
