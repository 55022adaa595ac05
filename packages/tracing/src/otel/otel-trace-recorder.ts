import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ConfigurationError, type Logger } from '@tiny-claw/core';
import type { TraceTree } from '../trace-schema.js';
import { traceTreeToReadableSpans } from './to-readable-spans.js';

/** Default `service.name` of exported spans. */
export const DEFAULT_OTEL_SERVICE_NAME = 'tiny-claw';

/**
 * Default export timeout. Short on purpose: the run awaits `record`, and a collector that is down
 * (connection refused is retried by the exporter) must not hold the end of every run for long.
 */
export const DEFAULT_OTEL_TIMEOUT_MS = 3_000;

// Extra time past the exporter's own deadline before `record` stops waiting for its callback.
const CALLBACK_GRACE_MS = 1_000;
// ExportResultCode.SUCCESS of @opentelemetry/core, which is not a direct dependency of this package.
const EXPORT_SUCCESS = 0;
const MAX_ERROR_CHARS = 300;

/** Settings of {@link createOtelTraceRecorder}. */
export interface OtelTraceRecorderOptions {
  /**
   * OTLP/HTTP base URL (`TINY_CLAW_OTEL_ENDPOINT`), e.g. `http://127.0.0.1:4318`; spans are posted to
   * `<endpoint>/v1/traces` (an endpoint already ending in `/v1/traces` is used as is).
   */
  endpoint: string;
  /** Extra request headers, e.g. a vendor API key (`TINY_CLAW_OTEL_HEADERS`, see `parseOtelHeaders`). */
  headers?: Record<string, string>;
  /** `service.name` resource attribute; default `tiny-claw`. */
  serviceName?: string;
  /** Longest time one export may take, retries included; default {@link DEFAULT_OTEL_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Where export failures go; they are never thrown. Default: dropped. */
  logger?: Pick<Logger, 'warn'>;
}

/** Sends finished trace trees to an OTLP collector. */
export interface OtelTraceRecorder {
  /** Exports one finished trace; resolves once the collector answered or the export failed. Never rejects. */
  record(tree: TraceTree): Promise<void>;
  /** Waits for exports in flight, then releases the connection; later `record` calls do nothing. Never rejects. */
  shutdown(): Promise<void>;
}

/**
 * A recorder that converts each finished trace tree into OTel spans under the GenAI semantic
 * conventions (`invoke_agent tiny-claw`, `chat {model}`, `execute_tool {tool}`) with the trace's
 * original timestamps, and exports them at once over OTLP/HTTP (JSON). Failures — collector down,
 * HTTP error, a malformed tree — are only reported to `logger.warn`. Throws `ConfigurationError`
 * only here, for an endpoint that is not an http(s) URL. Load it lazily:
 * `await import('@tiny-claw/tracing/otel')`.
 *
 * @example
 * const { createOtelTraceRecorder } = await import('@tiny-claw/tracing/otel');
 * const otel = createOtelTraceRecorder({ endpoint: 'http://127.0.0.1:4318', logger });
 * await otel.record(tree); // tree: a finished TraceTree
 * await otel.shutdown();
 */
export function createOtelTraceRecorder(options: OtelTraceRecorderOptions): OtelTraceRecorder {
  const url = otlpTracesUrl(options.endpoint);
  const where = `${url.origin}${url.pathname}`; // never the URL's credentials
  const timeoutMs = options.timeoutMs ?? DEFAULT_OTEL_TIMEOUT_MS;
  const logger = options.logger;
  const exporter = new OTLPTraceExporter({
    url: url.href,
    timeoutMillis: timeoutMs,
    ...(options.headers ? { headers: { ...options.headers } } : {}),
  });
  const resource = resourceFromAttributes({
    'service.name': options.serviceName ?? DEFAULT_OTEL_SERVICE_NAME,
  });
  let closed = false;
  let closing: Promise<void> | undefined;

  const warn = (message: string): void => {
    try {
      logger?.warn(message);
    } catch {
      // A broken logger must not turn a lost trace into a failed run.
    }
  };

  return {
    async record(tree) {
      if (closed) return;
      let spans: ReadableSpan[];
      try {
        spans = traceTreeToReadableSpans(tree, resource);
      } catch (error) {
        warn(`OpenTelemetry export skipped trace ${tree?.trace_id}: ${describe(error)}`);
        return;
      }
      const failure = await exportSpans(exporter, spans, timeoutMs + CALLBACK_GRACE_MS);
      if (failure !== undefined) {
        warn(`OpenTelemetry export of trace ${tree.trace_id} to ${where} failed: ${failure}`);
      }
    },
    shutdown() {
      closed = true;
      closing ??= exporter.shutdown().catch((error: unknown) => {
        warn(`OpenTelemetry exporter shutdown failed: ${describe(error)}`);
      });
      return closing;
    },
  };
}

/**
 * The URL an OTLP/HTTP trace exporter posts to for a base endpoint: `<endpoint>/v1/traces`.
 *
 * @example
 * otlpTracesUrl('http://127.0.0.1:4318/').href; // → 'http://127.0.0.1:4318/v1/traces'
 */
export function otlpTracesUrl(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint.trim());
  } catch {
    throw new ConfigurationError(
      `invalid OpenTelemetry endpoint ${JSON.stringify(endpoint)}: expected an http(s) URL such as http://127.0.0.1:4318`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(
      `invalid OpenTelemetry endpoint protocol ${url.protocol}: expected http: or https: (OTLP/HTTP)`,
    );
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/v1/traces') ? path : `${path}/v1/traces`;
  return url;
}

/** Resolves to undefined on success, else to why the export failed. */
function exportSpans(
  exporter: OTLPTraceExporter,
  spans: ReadableSpan[],
  waitMs: number,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    // The exporter always calls back, but a run must not hang on a library bug that forgets to.
    const timer = setTimeout(() => resolve(`no answer within ${waitMs} ms`), waitMs);
    timer.unref();
    const settle = (failure: string | undefined) => {
      clearTimeout(timer);
      resolve(failure);
    };
    try {
      exporter.export(spans, (result) => {
        settle(
          result.code === EXPORT_SUCCESS ? undefined : describe(result.error ?? 'unknown error'),
        );
      });
    } catch (error) {
      settle(describe(error));
    }
  });
}

function describe(error: unknown): string {
  // Node reports a refused `localhost` (IPv4 and IPv6 tried) as an AggregateError with no message.
  const code = (error as { code?: unknown } | null)?.code;
  const text =
    error instanceof Error
      ? error.message || (typeof code === 'string' ? code : '') || error.name
      : String(error);
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
}
