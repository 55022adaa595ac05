import type {
  TraceAttributes,
  TraceEvent,
  TraceSession,
  TraceSpan,
  TraceSpanStatus,
} from '../trace-schema.js';

// A chatty span (events in a loop) must not grow a trace without bound.
const MAX_EVENTS_PER_SPAN = 1000;

/**
 * Now in epoch milliseconds with sub-millisecond precision. Spans keep the number and format it
 * once, when the tree is written.
 *
 * @example
 * preciseNow(); // 1767225600123.456
 */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * An epoch-milliseconds time as ISO-8601 with microseconds: fast spans (a scripted model, a cached
 * read) last well under a millisecond, and millisecond stamps would show them all as 0 ms.
 *
 * @example
 * isoWithMicros(1767225600123.456); // '2026-01-01T00:00:00.123456Z'
 */
export function isoWithMicros(epochMs: number): string {
  const whole = Math.floor(epochMs);
  const second = Math.floor(whole / 1000);
  // Spans of one run start and end within a few seconds: the date and time up to the second is
  // formatted once per second, not twice per span.
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = new Date(second * 1000).toISOString().slice(0, -4); // up to and with the '.'
  }
  const millis = whole - second * 1000;
  const micros = Math.min(999, Math.floor((epochMs - whole) * 1000));
  return `${isoPrefix}${THREE_DIGITS[millis]}${THREE_DIGITS[micros]}Z`;
}

let isoSecond = Number.NaN;
let isoPrefix = '';
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/** The mutable state of one run while it is being traced. */
export interface RunState {
  readonly traceId: string;
  readonly session: TraceSession;
  readonly open: Set<SpanNode>;
  finished: boolean;
  sequence: number;
  /** Payload fingerprints still to compute: into `target[attribute]`, the hash of `text`. */
  readonly pendingHashes: Array<{ target: TraceAttributes; attribute: string; text: string }>;
}

/**
 * A span being recorded. Children are attached when they are created, so the tree exists in
 * memory as it grows and nothing is reassembled from parent ids at the end.
 */
export class SpanNode {
  readonly spanId: string;
  readonly parent: SpanNode | undefined;
  readonly kind: string;
  readonly name: string;
  readonly startedAt: number;
  readonly sequence: number;
  readonly run: RunState;
  readonly attributes: TraceAttributes = {};
  readonly events: TraceEvent[] = [];
  readonly children: SpanNode[] = [];
  endedAt: number | null = null;
  status: TraceSpanStatus = 'ok';
  droppedEvents = 0;

  constructor(init: {
    spanId: string;
    parent: SpanNode | undefined;
    kind: string;
    name: string;
    run: RunState;
  }) {
    this.spanId = init.spanId;
    this.parent = init.parent;
    this.kind = init.kind;
    this.name = init.name;
    this.run = init.run;
    this.startedAt = preciseNow();
    this.sequence = init.run.sequence++;
    init.parent?.children.push(this);
    init.run.open.add(this);
  }

  get ended(): boolean {
    return this.endedAt !== null;
  }

  addEvent(event: TraceEvent): void {
    if (this.events.length >= MAX_EVENTS_PER_SPAN) this.droppedEvents += 1;
    else this.events.push(event);
  }

  end(status: TraceSpanStatus): void {
    if (this.ended) return;
    this.endedAt = preciseNow();
    this.status = status;
    this.run.open.delete(this);
  }

  /** The schema v1 JSON of this span and everything under it. */
  toJSON(): TraceSpan {
    const attributes =
      this.droppedEvents > 0
        ? { ...this.attributes, dropped_events: this.droppedEvents }
        : this.attributes;
    return {
      span_id: this.spanId,
      parent_id: this.parent?.spanId ?? null,
      kind: this.kind,
      name: this.name,
      started_at: isoWithMicros(this.startedAt),
      ended_at: this.endedAt === null ? null : isoWithMicros(this.endedAt),
      status: this.status,
      attributes,
      events: this.events,
      children: orderChildren(this.children).map((child) => child.toJSON()),
    };
  }
}

/**
 * Children in creation order, except that each run of consecutive `tool.call` siblings is ordered
 * by `tool_call_index`: parallel calls may start or finish in any order, but the tree shows them
 * as the model asked for them.
 *
 * @example
 * orderChildren([llm, toolB, toolA]); // [llm, toolA, toolB] when A has the lower index
 */
export function orderChildren(children: readonly SpanNode[]): SpanNode[] {
  // Children are attached as they are created, so they are nearly always in sequence already.
  const ordered = inSequence(children)
    ? [...children]
    : [...children].sort((a, b) => a.sequence - b.sequence);
  let start = 0;
  while (start < ordered.length) {
    if (ordered[start]?.kind !== 'tool.call') {
      start += 1;
      continue;
    }
    let end = start;
    while (ordered[end]?.kind === 'tool.call') end += 1;
    if (end - start > 1) {
      const group = ordered.slice(start, end).sort(byToolIndex);
      ordered.splice(start, group.length, ...group);
    }
    start = end;
  }
  return ordered;
}

function inSequence(children: readonly SpanNode[]): boolean {
  for (let i = 1; i < children.length; i += 1) {
    if ((children[i] as SpanNode).sequence < (children[i - 1] as SpanNode).sequence) return false;
  }
  return true;
}

function byToolIndex(a: SpanNode, b: SpanNode): number {
  return toolIndex(a) - toolIndex(b) || a.sequence - b.sequence;
}

function toolIndex(node: SpanNode): number {
  const index = node.attributes.tool_call_index;
  return typeof index === 'number' ? index : Number.MAX_SAFE_INTEGER;
}
