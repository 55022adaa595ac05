import type { TraceSpan, TraceTree } from '../trace-schema.js';
import { failureText, renderStrings, traceStatsLine } from './render-strings.js';
import { spanCostLabel } from './span-cost-label.js';
import {
  formatDuration,
  isFailedSpan,
  spanDurationMs,
  spanFailure,
  spanTokens,
  spanToolName,
  traceStats,
} from './span-facts.js';

/** Options of {@link renderTraceTree}. */
export interface RenderTreeOptions {
  /** Paint statuses, errors and tokens with ANSI colours (default false: plain text for pipes). */
  color?: boolean;
  /** Show span events (e.g. `context.compacted`) as lines under their span (default true). */
  events?: boolean;
  /** Cut error messages to this many characters (default 200). */
  maxMessageChars?: number;
}

const ANSI = {
  dim: '2',
  bold: '1',
  red: '31',
  boldRed: '1;31',
  green: '32',
  yellow: '33',
  magenta: '35',
  cyan: '36',
} as const;

type Paint = (code: string, text: string) => string;

/**
 * A trace as a terminal tree: one line per span with kind, name (the tool for `tool.call`), status,
 * duration, for `llm.call` model, tokens and cost, and for the run (and each subagent run) the total
 * cost of its model calls — `cost≈$0.0123`, or `cost=unknown` when a model had no price; failures
 * get their own highlighted line with the error type and message; a header names the trace and a
 * summary line closes it.
 *
 * All trace text is stripped of control characters first: a trace may hold tool output, and an
 * escape sequence in it must not repaint the reader's terminal.
 *
 * @example
 * process.stdout.write(renderTraceTree(tree, { color: process.stdout.isTTY }));
 * // trace 4f1c… · session cli-1a2b3c4d5e6f-default (cli) · capture metadata
 * // agent.run tiny_claw.run  ok  1.23s  cost≈$0.0003
 * // └─ agent.step step.1  ok  1.20s
 * //    ├─ llm.call llm.openai  ok  900ms  gpt-4.1  tokens 120 in / 11 out  cost≈$0.0003
 * //    └─ tool.call read  error  12ms
 * //         ✗ ToolError: path does not exist: a.txt
 * // 4 spans · 1 step · 1 llm call · 1 tool call · 1 error · tokens 120 in / 11 out · 1.23s · ok
 */
export function renderTraceTree(tree: TraceTree, options: RenderTreeOptions = {}): string {
  const paint: Paint = options.color ? (code, text) => `\x1b[${code}m${text}\x1b[0m` : (_, t) => t;
  const settings = {
    paint,
    events: options.events ?? true,
    maxMessageChars: options.maxMessageChars ?? 200,
  };
  const session = tree.session.source
    ? `${clean(tree.session.key)} (${clean(tree.session.source)})`
    : clean(tree.session.key);
  const header = [
    paint(ANSI.bold, renderStrings.traceHeading(clean(tree.trace_id))),
    `${renderStrings.sessionLabel} ${session}`,
    `${renderStrings.captureLabel} ${clean(tree.capture_mode)}`,
  ].join(' · ');
  const lines = [header];
  renderSpan(tree.root, '', '', lines, settings, true);
  const summary = traceStats(tree);
  const closing = traceStatsLine(summary);
  lines.push(summary.errors > 0 ? paint(ANSI.red, closing) : paint(ANSI.dim, closing));
  return `${lines.join('\n')}\n`;
}

interface Settings {
  paint: Paint;
  events: boolean;
  maxMessageChars: number;
}

function renderSpan(
  span: TraceSpan,
  connector: string,
  childPrefix: string,
  lines: string[],
  settings: Settings,
  root = false,
): void {
  lines.push(`${connector}${spanLine(span, settings, root)}`);
  // Detail lines sit under the span, lined up with where its children's connectors start.
  const detailPrefix = `${childPrefix}${span.children.length > 0 ? '│  ' : '   '}`;
  const failure = failureLine(span, settings);
  if (failure) lines.push(`${detailPrefix}${failure}`);
  if (settings.events) {
    for (const event of span.events) {
      lines.push(`${detailPrefix}${settings.paint(ANSI.dim, `• ${clean(event.name)}`)}`);
    }
  }
  span.children.forEach((child, index) => {
    const last = index === span.children.length - 1;
    renderSpan(
      child,
      `${childPrefix}${last ? '└─ ' : '├─ '}`,
      `${childPrefix}${last ? '   ' : '│  '}`,
      lines,
      settings,
    );
  });
}

function spanLine(span: TraceSpan, { paint }: Settings, root: boolean): string {
  const label = spanToolName(span) ?? span.name;
  const duration = spanDurationMs(span);
  const parts = [
    `${paint(ANSI.cyan, clean(span.kind))} ${clean(label)}`,
    paintStatus(span, paint),
    paint(ANSI.dim, duration === undefined ? renderStrings.openSpan : formatDuration(duration)),
  ];
  const model = span.kind === 'llm.call' ? span.attributes.model : undefined;
  if (typeof model === 'string' && model !== '') parts.push(clean(model));
  const tokens = spanTokens(span);
  if (tokens) parts.push(paint(ANSI.magenta, renderStrings.tokens(tokens.input, tokens.output)));
  const cost = spanCostLabel(span, { root });
  if (cost) parts.push(paint(ANSI.magenta, cost));
  if (span.attributes.denied === true) parts.push(paint(ANSI.yellow, renderStrings.denied));
  if (span.attributes.suspended === true) parts.push(paint(ANSI.yellow, renderStrings.suspended));
  if (span.attributes.doom_loop_detected === true)
    parts.push(paint(ANSI.yellow, renderStrings.doomLoop));
  const waitMs = span.attributes.wait_ms;
  if (typeof waitMs === 'number' && Number.isFinite(waitMs))
    parts.push(paint(ANSI.dim, renderStrings.waited(formatDuration(waitMs))));
  return parts.join('  ');
}

function paintStatus(span: TraceSpan, paint: Paint): string {
  if (span.status === 'error') return paint(ANSI.boldRed, span.status);
  if (span.status === 'cancelled') return paint(ANSI.yellow, span.status);
  // An `ok` tool span whose result was an error still reads as a failure at a glance.
  return paint(isFailedSpan(span) ? ANSI.red : ANSI.green, span.status);
}

function failureLine(span: TraceSpan, { paint, maxMessageChars }: Settings): string | undefined {
  const failure = spanFailure(span);
  if (!failure) return undefined;
  const text = truncate(clean(failureText(failure, span.status)), maxMessageChars);
  return paint(ANSI.boldRed, `✗ ${text}`);
}

/**
 * Control characters (ESC, CR, BEL, C1…) and bidi overrides shown as visible `\u{…}` escapes instead
 * of being obeyed or reordering the line.
 */
function clean(text: string): string {
  return text.replace(
    /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu,
    (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`,
  );
}

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}
