import { type HrTime, type SpanContext, TraceFlags } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { TraceEvent, TraceSpan, TraceTree } from '../trace-schema.js';
import { TINY_CLAW_ATTRIBUTE_PREFIX, toGenAiSpan } from './genai-mapping.js';
import { hrTimeDuration, isoToHrTime, laterHrTime } from './iso-to-hr-time.js';
import { toOtelSpanId, toOtelTraceId } from './otel-ids.js';
import { copyPrefixed } from './to-attribute-value.js';

/** Who produced the spans: the OTel instrumentation scope of every exported span. */
export const INSTRUMENTATION_SCOPE = { name: '@tiny-claw/tracing' } as const;

/**
 * Converts a finished trace tree into finished OTel spans, ready for any `SpanExporter`: original
 * start/end times, the tree's parent links, deterministic OTel ids (see `toOtelTraceId`) and the
 * GenAI mapping of `toGenAiSpan`. Parents come before their children. Throws on an unparsable
 * timestamp.
 *
 * @example
 * const spans = traceTreeToReadableSpans(tree, resourceFromAttributes({ 'service.name': 'tiny-claw' }));
 * exporter.export(spans, (result) => {});
 */
export function traceTreeToReadableSpans(tree: TraceTree, resource: Resource): ReadableSpan[] {
  const traceId = toOtelTraceId(tree.trace_id);
  const spans: ReadableSpan[] = [];
  const visit = (
    span: TraceSpan,
    parent: SpanContext | undefined,
    parentEnd: HrTime | undefined,
  ) => {
    const context = spanContext(traceId, span.span_id);
    const startTime = isoToHrTime(span.started_at);
    // Written files always close their spans; an open one (a crash mid-run) ends with its parent.
    const endTime = laterHrTime(
      startTime,
      span.ended_at === null ? (parentEnd ?? startTime) : isoToHrTime(span.ended_at),
    );
    const shape = toGenAiSpan(span, { sessionKey: tree.session.key });
    if (parent === undefined) {
      shape.attributes[`${TINY_CLAW_ATTRIBUTE_PREFIX}capture_mode`] = tree.capture_mode;
      if (tree.session.source !== undefined) {
        shape.attributes[`${TINY_CLAW_ATTRIBUTE_PREFIX}session.source`] = tree.session.source;
      }
    }
    spans.push({
      name: shape.name,
      kind: shape.kind,
      spanContext: () => context,
      ...(parent === undefined ? {} : { parentSpanContext: parent }),
      startTime,
      endTime,
      duration: hrTimeDuration(startTime, endTime),
      status: shape.status,
      attributes: shape.attributes,
      links: [],
      events: span.events.map(toTimedEvent),
      ended: true,
      resource,
      instrumentationScope: INSTRUMENTATION_SCOPE,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    });
    for (const child of span.children) visit(child, context, endTime);
  };
  visit(tree.root, undefined, undefined);
  return spans;
}

function spanContext(traceId: string, ourSpanId: string): SpanContext {
  return { traceId, spanId: toOtelSpanId(ourSpanId), traceFlags: TraceFlags.SAMPLED };
}

function toTimedEvent(event: TraceEvent): ReadableSpan['events'][number] {
  const attributes = {};
  // Event attributes belong to the event's own name (`context.compacted`), so they keep their keys.
  copyPrefixed(attributes, event.attributes, '');
  return { name: event.name, time: isoToHrTime(event.timestamp), attributes };
}
