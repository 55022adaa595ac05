import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sampleTrace, XSS_PAYLOAD } from './__fixtures__/sample-trace.js';
import { renderTraceHtml } from './render-html.js';

function between(html: string, open: string, close: string): string {
  const start = html.indexOf(open);
  if (start < 0) throw new Error(`${open} not found`);
  const end = html.indexOf(close, start + open.length);
  return html.slice(start + open.length, end);
}

function spanTag(html: string, name: string): string {
  const at = html.indexOf(`<span class="name">${name}</span>`);
  const tagStart = html.lastIndexOf('<details class="span', at);
  return html.slice(tagStart, html.indexOf('>', tagStart) + 1);
}

describe('renderTraceHtml', () => {
  it('is one page with the trace id, session and capture mode in its header', () => {
    const html = renderTraceHtml(sampleTrace());
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>tiny-claw trace trace-0001</title>');
    expect(html).toContain('<code class="trace-id">trace-0001</code>');
    expect(html).toContain('<dd>cli-1a2b3c4d5e6f-default (cli)</dd>');
    expect(html).toContain('<dd>replay</dd>');
    expect(html).toContain('14 spans · 3 steps · 4 llm calls · 4 tool calls · 1 error');
  });

  it('loads nothing from elsewhere: no src, href, url() or imports, and a CSP that forbids fetches', () => {
    const html = renderTraceHtml(sampleTrace());
    expect(html).not.toMatch(/\s(src|href)=/i);
    expect(html).not.toMatch(/url\(|@import|https?:\/\//i);
    expect(html).toMatch(/Content-Security-Policy" content="default-src &#39;none&#39;/);
  });

  it('allows exactly its own inline script, by hash', () => {
    const html = renderTraceHtml(sampleTrace());
    const script = between(html, '<script>', '</script>');
    const hash = createHash('sha256').update(script).digest('base64');
    expect(html).toContain(`script-src &#39;sha256-${hash}&#39;`);
    expect(html.match(/<script/g)).toHaveLength(2);
  });

  it('escapes trace text so markup in an attribute stays text', () => {
    const tree = sampleTrace();
    tree.root.name = '<img src=x onerror=alert(1)>';
    tree.session.key = '"><b>key';
    const html = renderTraceHtml(tree);
    expect(html).not.toContain(XSS_PAYLOAD);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>key');
    expect(html).toContain(
      '&lt;/script&gt;&lt;script&gt;window.__pwned = 1; alert(1)&lt;/script&gt;',
    );
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('embeds the trace JSON with no "<" in it, and parsing it gives the trace back', () => {
    const tree = sampleTrace();
    const html = renderTraceHtml(tree);
    const json = between(html, '<script type="application/json" id="trace-data">', '</script>');
    expect(json).not.toMatch(/[<>&]/);
    expect(JSON.parse(json)).toEqual(tree);
  });

  it('starts the run and its steps expanded and the calls inside them collapsed', () => {
    const html = renderTraceHtml(sampleTrace());
    expect(spanTag(html, 'tiny_claw.run')).toMatch(/ open>$/);
    expect(spanTag(html, 'step.1')).toMatch(/ open>$/);
    expect(spanTag(html, 'explore')).not.toMatch(/ open>$/);
    const shallow = renderTraceHtml(sampleTrace(), { openDepth: 0 });
    expect(spanTag(shallow, 'tiny_claw.run')).toMatch(/ open>$/);
    expect(spanTag(shallow, 'step.1')).not.toMatch(/ open>$/);
  });

  it('keeps every span that contains a failure expanded and marks the failed span with its error', () => {
    const html = renderTraceHtml(sampleTrace(), { openDepth: 0 });
    expect(spanTag(html, 'step.2')).toMatch(/ open>$/);
    expect(spanTag(html, 'step.3')).not.toMatch(/ open>$/);
    expect(spanTag(html, 'write')).toContain('class="span kind-tool-call status-error failed"');
    expect(html).toContain(
      '<span class="error-text">✗ ToolError: path escapes the workdir: ../../etc/passwd</span>',
    );
  });

  it('places each timeline bar by start and duration relative to the root', () => {
    const html = renderTraceHtml(sampleTrace());
    const bars = [...html.matchAll(/style="left:([0-9.]+)%;width:([0-9.]+)%"/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    expect(bars).toHaveLength(14);
    expect(bars[0]).toEqual([0, 100]);
    // step.2 runs from 910 ms to 1900 ms of a 2400 ms run.
    expect(html).toContain(
      `style="left:${((910 / 2400) * 100).toFixed(3)}%;width:${((990 / 2400) * 100).toFixed(3)}%"`,
    );
  });

  it('shows attribute payloads and events inside the span body', () => {
    const html = renderTraceHtml(sampleTrace());
    expect(html).toContain('<tr><th>tool_call_index</th><td><code>2</code></td></tr>');
    expect(html).toContain('context.compacted <code>{&quot;level&quot;:1}</code>');
  });
});
