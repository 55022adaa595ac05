/** A span as read back from an OTLP/HTTP JSON body, attributes flattened to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP enum: 1 INTERNAL, 2 SERVER, 3 CLIENT. */
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  status: { code?: number; message?: string };
  attributes: Record<string, unknown>;
  events: Array<{ name: string; timeUnixNano: string; attributes: Record<string, unknown> }>;
  resource: Record<string, unknown>;
  scope: string;
}

interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
}

/**
 * Every span of an `ExportTraceServiceRequest` JSON body, with its resource and scope.
 *
 * @example
 * const spans = spansOf(receiver.received[0]?.body);
 */
export function spansOf(body: unknown): ReceivedSpan[] {
  // biome-ignore lint/suspicious/noExplicitAny: reading an untyped wire payload in a test
  const request = body as any;
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        spans.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          name: span.name,
          kind: span.kind,
          startTimeUnixNano: String(span.startTimeUnixNano),
          endTimeUnixNano: String(span.endTimeUnixNano),
          status: span.status ?? {},
          attributes: attributesOf(span.attributes),
          events: (span.events ?? []).map(
            (event: { name: string; timeUnixNano: unknown; attributes?: OtlpKeyValue[] }) => ({
              name: event.name,
              timeUnixNano: String(event.timeUnixNano),
              attributes: attributesOf(event.attributes),
            }),
          ),
          resource,
          scope: scopeSpans.scope?.name,
        });
      }
    }
  }
  return spans;
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, valueOf(entry.value)]));
}

function valueOf(value: OtlpAnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}
