import type { TraceJsonValue, TraceSpan, TraceTree } from '../trace-schema.js';

/** Token counts an `llm.call` span reported (from its `input_tokens` / `output_tokens` attributes). */
export interface SpanTokens {
  input: number;
  output: number;
}

/** Why a span failed, as far as its attributes and events tell. */
export interface SpanFailure {
  /** e.g. `ProviderError`, `ToolError`; undefined when the span did not name one. */
  type: string | undefined;
  /** First line of the message; undefined when the span did not record one. */
  message: string | undefined;
}

/** Counts over a whole trace, for the summary line and the HTML header. */
export interface TraceStats {
  spans: number;
  steps: number;
  llmCalls: number;
  toolCalls: number;
  errors: number;
  /** Token totals over every `llm.call`; undefined when no call reported tokens. */
  tokens: SpanTokens | undefined;
  /** Wall time of the root span in milliseconds; undefined when it has no valid end. */
  durationMs: number | undefined;
  status: TraceSpan['status'];
}

/**
 * Milliseconds between `started_at` and `ended_at`; undefined for an open span or a bad timestamp.
 *
 * @example
 * spanDurationMs({ started_at: '2025-01-01T00:00:00.000Z', ended_at: '2025-01-01T00:00:01.500Z' }); // 1500
 */
export function spanDurationMs(
  span: Pick<TraceSpan, 'started_at' | 'ended_at'>,
): number | undefined {
  const start = timestampMs(span.started_at);
  const end = span.ended_at === null ? undefined : timestampMs(span.ended_at);
  if (start === undefined || end === undefined) return undefined;
  // Clock steps can make an end precede its start; a negative duration would only confuse.
  return Math.max(0, end - start);
}

/**
 * Epoch milliseconds of an ISO-8601 timestamp; undefined when it does not parse.
 *
 * @example
 * timestampMs('1970-01-01T00:00:01Z'); // 1000
 */
export function timestampMs(value: string | null | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * A human duration: `840ms`, `1.25s`, `2m 03s`, `1h 02m`.
 *
 * @example
 * formatDuration(1250); // '1.25s'
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`;
  const totalSeconds = Math.round(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return hours > 0
    ? `${hours}h ${String(minutes).padStart(2, '0')}m`
    : `${minutes}m ${String(seconds).padStart(2, '0')}s`;
}

/**
 * Token counts of an `llm.call` span; undefined for other kinds or when neither count is recorded.
 *
 * @example
 * spanTokens(llmSpan); // { input: 120, output: 11 }
 */
export function spanTokens(span: TraceSpan): SpanTokens | undefined {
  if (span.kind !== 'llm.call') return undefined;
  const input = count(span.attributes.input_tokens);
  const output = count(span.attributes.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  return { input: input ?? 0, output: output ?? 0 };
}

/**
 * What a span cost in USD, from the `cost_usd` the tracer records on `llm.call` spans: for an
 * `llm.call` its own price, for any other span the total of the model calls under it (a run
 * includes its subagents'). Undefined when it is not known: the call (or, for a total, any call
 * that reported tokens) had no price, or no call under the span was priced at all — a total that
 * left out a call would read lower than the bill.
 *
 * @example
 * spanCostUsd(llmSpan); // 0.0028
 * spanCostUsd(tree.root); // 0.0113, or undefined when a model had no price
 */
export function spanCostUsd(span: TraceSpan): number | undefined {
  if (span.kind === 'llm.call') return count(span.attributes.cost_usd);
  let total: number | undefined;
  for (const call of walkSpans(span)) {
    if (call.kind !== 'llm.call') continue;
    const cost = count(call.attributes.cost_usd);
    if (cost !== undefined) total = (total ?? 0) + cost;
    else if (spanTokens(call)) return undefined;
  }
  return total;
}

/**
 * The tool a `tool.call` span ran: its `tool_name` attribute, else its name without `tool.`.
 *
 * @example
 * spanToolName(toolSpan); // 'read'
 */
export function spanToolName(span: TraceSpan): string | undefined {
  if (span.kind !== 'tool.call') return undefined;
  const named = span.attributes.tool_name;
  if (typeof named === 'string' && named !== '') return named;
  return span.name.startsWith('tool.') ? span.name.slice('tool.'.length) : span.name;
}

/**
 * Whether a span should be shown as failed: status `error`, or a tool result flagged `is_error`
 * (a tool that failed politely still ends its span `ok`, yet the reader is looking for it).
 *
 * @example
 * isFailedSpan({ ...span, status: 'error' }); // true
 */
export function isFailedSpan(span: TraceSpan): boolean {
  return span.status === 'error' || span.attributes.is_error === true;
}

/**
 * Error type and message of a failed span, from the usual attribute names, an `exception` event,
 * or — for a tool in replay mode — the first line of its observation.
 *
 * @example
 * spanFailure(span); // { type: 'ProviderError', message: '500 from the provider' }
 */
export function spanFailure(span: TraceSpan): SpanFailure | undefined {
  if (!isFailedSpan(span)) return undefined;
  const sources = [
    span.attributes,
    ...span.events.filter((e) => /error|exception/i.test(e.name)).map((e) => e.attributes),
  ];
  let type: string | undefined;
  let message: string | undefined;
  for (const attributes of sources) {
    type ??= text(attributes.error_type) ?? text(attributes['error.type']);
    message ??=
      text(attributes.error_message) ??
      text(attributes['error.message']) ??
      text(attributes['exception.message']) ??
      text(attributes.error);
  }
  // In replay mode a failed tool's (redacted) observation is the best message there is.
  if (span.kind === 'tool.call') message ??= text(span.attributes.tool_observation);
  return { type, message: message?.split('\n', 1)[0] };
}

/**
 * Every span of the tree, depth first, root first.
 *
 * @example
 * for (const span of walkSpans(tree.root)) console.log(span.kind);
 */
export function* walkSpans(root: TraceSpan): Generator<TraceSpan> {
  yield root;
  for (const child of root.children) yield* walkSpans(child);
}

/**
 * Counts, token totals, duration and status of a trace.
 *
 * @example
 * traceStats(tree).toolCalls; // 3
 */
export function traceStats(tree: TraceTree): TraceStats {
  const summary: TraceStats = {
    spans: 0,
    steps: 0,
    llmCalls: 0,
    toolCalls: 0,
    errors: 0,
    tokens: undefined,
    durationMs: spanDurationMs(tree.root),
    status: tree.root.status,
  };
  for (const span of walkSpans(tree.root)) {
    summary.spans += 1;
    if (span.kind === 'agent.step') summary.steps += 1;
    if (span.kind === 'llm.call') summary.llmCalls += 1;
    if (span.kind === 'tool.call') summary.toolCalls += 1;
    if (isFailedSpan(span)) summary.errors += 1;
    const tokens = spanTokens(span);
    if (tokens) {
      summary.tokens ??= { input: 0, output: 0 };
      summary.tokens.input += tokens.input;
      summary.tokens.output += tokens.output;
    }
  }
  return summary;
}

function count(value: TraceJsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function text(value: TraceJsonValue | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
