import { ConfigurationError, type Logger, type Tracer } from '@tiny-claw/core';
import { createTracer, FileTraceRecorder, type TraceRecorder } from '@tiny-claw/tracing';
import type { Settings } from '../settings/settings-schema.js';

/**
 * The run tracer plus whatever must be flushed when the process ends.
 *
 * @example
 * const { tracer, close } = await createRuntimeTracing(settings, logger);
 */
export interface RuntimeTracing {
  /** Undefined when `TINY_CLAW_TRACE_MODE=off`: the agent then records nothing. */
  tracer: Tracer | undefined;
  /** Flush and close exporters (OpenTelemetry); safe to call more than once. */
  close(): Promise<void>;
}

/**
 * Build the tracer from `TINY_CLAW_TRACE_MODE` / `TINY_CLAW_TRACE_MAX_PAYLOAD_CHARS`, writing each
 * run's trace under the state dir and, when `TINY_CLAW_OTEL_ENDPOINT` is set, also exporting it
 * over OTLP/HTTP (the OpenTelemetry code is loaded only then).
 *
 * @example
 * const { tracer, close } = await createRuntimeTracing(settings, logger);
 */
export async function createRuntimeTracing(
  settings: Settings,
  logger: Logger,
): Promise<RuntimeTracing> {
  if (settings.traceMode === 'off') return { tracer: undefined, close: async () => {} };
  const recorders: TraceRecorder[] = [new FileTraceRecorder(settings.stateDir)];
  let close = async () => {};
  if (settings.otelEndpoint) {
    const { createOtelTraceRecorder, parseOtelHeaders } = await import('@tiny-claw/tracing/otel');
    let headers: Record<string, string> | undefined;
    try {
      headers = settings.otelHeaders ? parseOtelHeaders(settings.otelHeaders) : undefined;
    } catch (error) {
      throw new ConfigurationError(
        `TINY_CLAW_OTEL_HEADERS is invalid: ${(error as Error).message}. Expected key=value pairs separated by commas.`,
      );
    }
    const otel = createOtelTraceRecorder({
      endpoint: settings.otelEndpoint,
      ...(headers ? { headers } : {}),
      logger,
    });
    recorders.push(otel);
    close = () => otel.shutdown();
  }
  const tracer = createTracer({
    stateDir: settings.stateDir,
    mode: settings.traceMode,
    maxPayloadChars: settings.traceMaxPayloadChars,
    recorders,
    logger,
  });
  return { tracer, close };
}
