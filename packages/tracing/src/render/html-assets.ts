/**
 * The stylesheet and script inlined into every trace page. Kept apart from the markup so the page
 * builder stays readable; nothing here is loaded from anywhere else.
 *
 * The script only adds conveniences (expand/collapse all, jump to errors, raw JSON): the tree itself
 * is plain `<details>` markup and stays readable with scripts disabled.
 */
export const TRACE_PAGE_CSS = `
:root {
  color-scheme: light dark;
  --fg: #1f2328; --muted: #656d76; --bg: #ffffff; --panel: #f6f8fa; --line: #d0d7de;
  --ok: #1a7f37; --error: #cf222e; --error-bg: #ffebe9; --cancelled: #9a6700;
  --bar: #0969da; --bar-error: #cf222e; --track: #eaeef2; --kind: #0550ae;
}
@media (prefers-color-scheme: dark) {
  :root {
    --fg: #e6edf3; --muted: #8d96a0; --bg: #0d1117; --panel: #161b22; --line: #30363d;
    --ok: #3fb950; --error: #f85149; --error-bg: #3c1618; --cancelled: #d29922;
    --bar: #4493f8; --bar-error: #f85149; --track: #21262d; --kind: #79c0ff;
  }
}
* { box-sizing: border-box; }
body { margin: 0; padding: 16px 20px 40px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--fg); background: var(--bg); }
code, pre, .kind, .duration, .tokens, td { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
h1 { font-size: 18px; margin: 0 0 8px; word-break: break-all; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 8px; }
.meta dt { color: var(--muted); }
.meta dd { margin: 0; word-break: break-all; }
.trace-summary { margin: 8px 0; font-weight: 600; }
.trace-summary.has-errors { color: var(--error); }
.toolbar { display: flex; gap: 8px; margin: 8px 0 16px; }
.toolbar button { font: inherit; padding: 3px 10px; border: 1px solid var(--line); border-radius: 6px;
  background: var(--panel); color: var(--fg); cursor: pointer; }
.tree { border: 1px solid var(--line); border-radius: 8px; padding: 6px; }
details.span { border-left: 3px solid transparent; margin: 2px 0 2px 0; }
details.span details.span { margin-left: 18px; }
details.span > summary { position: relative; display: grid; grid-template-columns: minmax(0, 1fr) auto auto 240px;
  gap: 10px; align-items: center; padding: 3px 6px 3px 18px; border-radius: 4px; cursor: pointer; list-style: none; }
details.span > summary::-webkit-details-marker { display: none; }
details.span > summary::before { content: "▸"; position: absolute; left: 4px; top: 3px; color: var(--muted); }
details.span[open] > summary::before { content: "▾"; }
details.span > summary:hover { background: var(--panel); }
details.span > summary:focus-visible { outline: 2px solid var(--bar); }
.label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.kind { color: var(--kind); margin-right: 6px; }
.extra { color: var(--muted); margin-left: 8px; }
.status { font-size: 12px; padding: 0 6px; border-radius: 10px; border: 1px solid currentColor; }
.status-ok > summary .status { color: var(--ok); }
.status-error > summary .status { color: var(--error); }
.status-cancelled > summary .status { color: var(--cancelled); }
.duration { color: var(--muted); text-align: right; min-width: 5em; }
.timeline { position: relative; height: 10px; background: var(--track); border-radius: 3px; }
.bar { position: absolute; top: 0; bottom: 0; min-width: 2px; background: var(--bar); border-radius: 3px; }
details.failed { border-left-color: var(--error); }
details.failed > summary { background: var(--error-bg); }
details.failed > summary .bar { background: var(--bar-error); }
.error-text { grid-column: 1 / -1; color: var(--error); font-weight: 600; white-space: pre-wrap; word-break: break-word; }
.body { margin: 2px 0 4px 18px; padding: 4px 0 4px 8px; border-left: 1px dashed var(--line); }
.attributes { border-collapse: collapse; margin: 4px 0; font-size: 13px; }
.attributes caption, .events-title { text-align: left; color: var(--muted); font-size: 12px; padding: 2px 0; }
.attributes th { text-align: left; font-weight: 500; color: var(--muted); padding: 1px 12px 1px 0; vertical-align: top; white-space: nowrap; }
.attributes td { padding: 1px 0; word-break: break-word; }
.attributes pre, .raw pre { margin: 0; max-height: 320px; overflow: auto; background: var(--panel); padding: 4px 6px; border-radius: 4px; white-space: pre-wrap; }
.events { margin: 4px 0; padding-left: 18px; font-size: 13px; }
.events time { color: var(--muted); margin-right: 6px; }
.none { color: var(--muted); font-style: italic; margin: 2px 0; }
.raw { margin-top: 16px; }
.raw > summary { cursor: pointer; color: var(--muted); }
footer { margin-top: 24px; color: var(--muted); font-size: 12px; }
`;

/** Plain ES2017 so any browser that can open the file runs it; no globals are left behind. */
export const TRACE_PAGE_SCRIPT = `
(function () {
  'use strict';
  var spans = function () { return Array.prototype.slice.call(document.querySelectorAll('details.span')); };
  var toolbar = document.querySelector('.toolbar');
  if (toolbar) toolbar.addEventListener('click', function (event) {
    var button = event.target.closest('button[data-action]');
    if (!button) return;
    var action = button.getAttribute('data-action');
    spans().forEach(function (node) {
      if (action === 'expand') node.open = true;
      else if (action === 'collapse') node.open = false;
      else if (action === 'errors') node.open = node.querySelector('details.failed') !== null;
    });
    if (action === 'errors') {
      var first = document.querySelector('details.span.failed');
      if (first) { first.scrollIntoView({ block: 'center' }); first.querySelector('summary').focus(); }
    }
  });
  var raw = document.getElementById('raw');
  if (raw) raw.addEventListener('toggle', function () {
    var pre = document.getElementById('raw-json');
    if (!raw.open || pre.textContent !== '') return;
    var data = JSON.parse(document.getElementById('trace-data').textContent);
    pre.textContent = JSON.stringify(data, null, 2);
  });
})();
`;
