/**
 * Renderers of a trace: a terminal tree and one self-contained HTML page, plus the figures both
 * show (durations, token totals, costs, failures) for callers that print their own summaries.
 *
 * @example
 * import { readTrace, renderTraceHtml, renderTraceTree } from '@tiny-claw/tracing';
 * const tree = await readTrace(path);
 * process.stdout.write(renderTraceTree(tree, { color: process.stdout.isTTY }));
 *
 * @module
 */
export { costLabel, formatCost } from './format-cost.js';
export { type RenderHtmlOptions, renderTraceHtml } from './render-html.js';
export { traceStatsLine } from './render-strings.js';
export { type RenderTreeOptions, renderTraceTree } from './render-tree.js';
export {
  formatDuration,
  type SpanFailure,
  type SpanTokens,
  spanCostUsd,
  spanDurationMs,
  spanFailure,
  spanTokens,
  type TraceStats,
  traceStats,
} from './span-facts.js';
