import { createHash } from 'node:crypto';
import type { TraceJsonValue, TraceSpan, TraceTree } from '../trace-schema.js';
import { TRACE_PAGE_CSS, TRACE_PAGE_SCRIPT } from './html-assets.js';
import { escapeHtml, scriptSafeJson } from './html-escape.js';
import { failureText, renderStrings, traceStatsLine } from './render-strings.js';
import { spanCostLabel } from './span-cost-label.js';
import {
  formatDuration,
  isFailedSpan,
  spanDurationMs,
  spanFailure,
  spanTokens,
  spanToolName,
  timestampMs,
  traceStats,
  walkSpans,
} from './span-facts.js';

/** Options of {@link renderTraceHtml}. */
export interface RenderHtmlOptions {
  /**
   * Spans this deep or shallower start expanded (root = 0; default 1: the run and its steps). Spans
   * that contain a failure always start expanded so the failure is in view.
   */
  openDepth?: number;
}

/** Where a span sits on the run's timeline, in percent of the root span. */
interface Timeline {
  start: number;
  total: number;
}

// Long or multi-line strings read better as a block than squeezed into a table cell.
const INLINE_VALUE_CHARS = 120;

/**
 * One self-contained HTML page for a trace: inline CSS and JS, no network, no external assets.
 * The tree is nested `<details>` (collapsible with mouse and keyboard, readable without scripts),
 * each span with status, duration, tokens, cost (as the terminal tree shows it), a timeline bar
 * placed by its start and duration relative to the root, and its attributes and events when
 * expanded; failed spans are highlighted with their error. A header shows the trace id, session,
 * capture mode and a summary.
 *
 * Every piece of trace text is HTML-escaped and the raw JSON is embedded with `<` escaped, so a
 * trace holding `</script><script>…` renders as text. A Content-Security-Policy allows only the
 * page's own script (by hash) and no fetches at all, as a second line of defence.
 *
 * @example
 * await writeFile('trace.html', renderTraceHtml(tree));
 */
export function renderTraceHtml(tree: TraceTree, options: RenderHtmlOptions = {}): string {
  const openDepth = options.openDepth ?? 1;
  const summary = traceStats(tree);
  const timeline = timelineOf(tree.root);
  const session = tree.session.source
    ? `${tree.session.key} (${tree.session.source})`
    : tree.session.key;
  const scriptHash = createHash('sha256').update(TRACE_PAGE_SCRIPT).digest('base64');
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src 'sha256-${scriptHash}'`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const meta: Array<[string, string]> = [
    [renderStrings.sessionLabel, session],
    [renderStrings.captureLabel, tree.capture_mode],
    [renderStrings.startedLabel, tree.root.started_at],
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(renderStrings.htmlTitle(tree.trace_id))}</title>
<style>${TRACE_PAGE_CSS}</style>
</head>
<body>
<header>
<h1>${escapeHtml(renderStrings.traceLabel)} <code class="trace-id">${escapeHtml(tree.trace_id)}</code></h1>
<dl class="meta">${meta.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>
<p class="trace-summary${summary.errors > 0 ? ' has-errors' : ''}">${escapeHtml(traceStatsLine(summary))}</p>
<div class="toolbar">
<button type="button" data-action="expand">${escapeHtml(renderStrings.expandAll)}</button>
<button type="button" data-action="collapse">${escapeHtml(renderStrings.collapseAll)}</button>
<button type="button" data-action="errors">${escapeHtml(renderStrings.showErrors)}</button>
</div>
</header>
<main class="tree" id="tree">
${renderSpan(tree.root, 0, { openDepth, timeline })}
</main>
<details class="raw" id="raw"><summary>${escapeHtml(renderStrings.rawJson)}</summary><pre id="raw-json"></pre></details>
<footer>${escapeHtml(renderStrings.footer)}</footer>
<script type="application/json" id="trace-data">${scriptSafeJson(tree)}</script>
<script>${TRACE_PAGE_SCRIPT}</script>
</body>
</html>
`;
}

interface Layout {
  openDepth: number;
  timeline: Timeline | undefined;
}

function renderSpan(span: TraceSpan, depth: number, layout: Layout): string {
  const failed = isFailedSpan(span);
  const open = depth <= layout.openDepth || span.children.some(containsFailure);
  const classes = [
    'span',
    `kind-${span.kind.replace(/[^a-z0-9]+/gi, '-')}`,
    `status-${span.status}`,
    ...(failed ? ['failed'] : []),
  ].join(' ');
  const duration = spanDurationMs(span);
  const failure = spanFailure(span);
  const errorText = failure ? failureText(failure, span.status) : undefined;
  const children = span.children.map((child) => renderSpan(child, depth + 1, layout)).join('\n');
  return `<details class="${escapeHtml(classes)}" data-span-id="${escapeHtml(span.span_id)}" data-kind="${escapeHtml(span.kind)}" data-status="${escapeHtml(span.status)}"${open ? ' open' : ''}>
<summary><span class="label"><span class="kind">${escapeHtml(span.kind)}</span><span class="name">${escapeHtml(spanToolName(span) ?? span.name)}</span>${extras(span, depth === 0)}</span><span class="status">${escapeHtml(span.status)}</span><span class="duration">${escapeHtml(duration === undefined ? renderStrings.openSpan : formatDuration(duration))}</span>${bar(span, layout.timeline)}${errorText === undefined ? '' : `<span class="error-text">✗ ${escapeHtml(errorText)}</span>`}</summary>
<div class="body">${details(span)}${children === '' ? '' : `<div class="children">\n${children}\n</div>`}</div>
</details>`;
}

function extras(span: TraceSpan, root: boolean): string {
  const parts: string[] = [];
  const model = span.kind === 'llm.call' ? span.attributes.model : undefined;
  if (typeof model === 'string' && model !== '') parts.push(model);
  const tokens = spanTokens(span);
  if (tokens) parts.push(renderStrings.tokens(tokens.input, tokens.output));
  const cost = spanCostLabel(span, { root });
  if (cost) parts.push(cost);
  if (span.attributes.denied === true) parts.push(renderStrings.denied);
  if (span.attributes.suspended === true) parts.push(renderStrings.suspended);
  if (span.attributes.doom_loop_detected === true) parts.push(renderStrings.doomLoop);
  const waitMs = span.attributes.wait_ms;
  if (typeof waitMs === 'number' && Number.isFinite(waitMs))
    parts.push(renderStrings.waited(formatDuration(waitMs)));
  return parts.length === 0 ? '' : `<span class="extra">${escapeHtml(parts.join(' · '))}</span>`;
}

function bar(span: TraceSpan, timeline: Timeline | undefined): string {
  const start = timestampMs(span.started_at);
  const duration = spanDurationMs(span);
  if (!timeline || start === undefined) return '<span class="timeline" aria-hidden="true"></span>';
  const left = clamp(((start - timeline.start) / timeline.total) * 100, 0, 100);
  // An open span runs to the end of the timeline; a 0 ms span still gets a visible sliver (CSS).
  const width = clamp(
    duration === undefined ? 100 - left : (duration / timeline.total) * 100,
    0,
    100 - left,
  );
  const offset = formatDuration(Math.max(0, start - timeline.start));
  const title = `+${offset}${duration === undefined ? '' : `, ${formatDuration(duration)}`}`;
  return `<span class="timeline" aria-hidden="true" title="${escapeHtml(title)}"><span class="bar" style="left:${left.toFixed(3)}%;width:${width.toFixed(3)}%"></span></span>`;
}

function details(span: TraceSpan): string {
  const entries = Object.entries(span.attributes);
  if (entries.length === 0 && span.events.length === 0)
    return `<p class="none">${escapeHtml(renderStrings.noDetails)}</p>`;
  let html = '';
  if (entries.length > 0) {
    const rows = entries
      .map(
        ([key, value]) => `<tr><th>${escapeHtml(key)}</th><td>${attributeValue(value)}</td></tr>`,
      )
      .join('');
    html += `<table class="attributes"><caption>${escapeHtml(renderStrings.attributes)}</caption>${rows}</table>`;
  }
  if (span.events.length > 0) {
    const items = span.events
      .map((event) => {
        const attributes =
          Object.keys(event.attributes).length === 0
            ? ''
            : ` <code>${escapeHtml(JSON.stringify(event.attributes))}</code>`;
        return `<li><time>${escapeHtml(event.timestamp)}</time>${escapeHtml(event.name)}${attributes}</li>`;
      })
      .join('');
    html += `<div class="events-title">${escapeHtml(renderStrings.events)}</div><ul class="events">${items}</ul>`;
  }
  return html;
}

function attributeValue(value: TraceJsonValue): string {
  if (typeof value === 'string') {
    return value.length > INLINE_VALUE_CHARS || value.includes('\n')
      ? `<pre>${escapeHtml(value)}</pre>`
      : escapeHtml(value);
  }
  if (value !== null && typeof value === 'object')
    return `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
  return `<code>${escapeHtml(String(value))}</code>`;
}

/** The root's start and length; spans still open stretch it to the latest end seen. */
function timelineOf(root: TraceSpan): Timeline | undefined {
  const start = timestampMs(root.started_at);
  if (start === undefined) return undefined;
  let end = start;
  for (const span of walkSpans(root)) {
    const spanEnd = timestampMs(span.ended_at) ?? timestampMs(span.started_at);
    if (spanEnd !== undefined && spanEnd > end) end = spanEnd;
  }
  // A run that took 0 ms still needs a non-zero scale to divide by.
  return { start, total: Math.max(end - start, 1) };
}

function containsFailure(span: TraceSpan): boolean {
  for (const node of walkSpans(span)) if (isFailedSpan(node)) return true;
  return false;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
