import { describe, expect, it } from 'vitest';
import type { TraceTree } from '../trace-schema.js';
import { sampleTrace } from './__fixtures__/sample-trace.js';
import { renderTraceTree } from './render-tree.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escapes is the point
const ANSI = /\x1b\[[0-9;]*m/g;

describe('renderTraceTree', () => {
  it('draws one line per span with kind, tool name, status and duration, children under parents', () => {
    const lines = renderTraceTree(sampleTrace()).split('\n');
    expect(lines[0]).toBe(
      'trace trace-0001 · session cli-1a2b3c4d5e6f-default (cli) · capture replay',
    );
    expect(lines[1]).toBe('agent.run tiny_claw.run  ok  2.40s  cost=unknown');
    expect(lines).toContain('├─ agent.step step.1  ok  890ms');
    expect(lines).toContain('│  ├─ tool.call read  ok  30ms');
    expect(lines).toContain('│  └─ tool.call explore  ok  280ms');
    expect(lines).toContain('│     └─ subagent.run explorer  ok  260ms  cost=unknown');
    expect(lines).toContain('└─ agent.step step.3  ok  480ms');
  });

  it('shows model and token counts on llm.call spans', () => {
    const text = renderTraceTree(sampleTrace());
    expect(text).toContain('├─ llm.call llm.openai  ok  480ms  gpt-4.1  tokens 120 in / 11 out');
    expect(text).toContain('tokens 260 in / 30 out');
  });

  it('highlights a failure on its own line with the error type and the first line of its message', () => {
    const lines = renderTraceTree(sampleTrace()).split('\n');
    const at = lines.indexOf('│  └─ tool.call write  error  480ms');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe('│     │  ✗ ToolError: path escapes the workdir: ../../etc/passwd');
    expect(lines.join('\n')).not.toContain('second line');
  });

  it('shows the error type alone when, as in metadata mode, no message was kept', () => {
    const tree = sampleTrace();
    const write = tree.root.children[1]?.children[1];
    if (!write) throw new Error('fixture changed');
    write.attributes = { tool_name: 'write', is_error: true, error_type: 'write_outside_workdir' };
    expect(renderTraceTree(tree)).toContain('│     │  ✗ write_outside_workdir\n');
  });

  it("uses a failed tool's replay observation as its message", () => {
    const tree = sampleTrace();
    const write = tree.root.children[1]?.children[1];
    if (!write) throw new Error('fixture changed');
    write.attributes = {
      is_error: true,
      error_type: 'execution_error',
      tool_observation: 'disk full\nmore detail',
    };
    expect(renderTraceTree(tree)).toContain('✗ execution_error: disk full\n');
  });

  it('flags a tool result marked is_error even when its span ended ok', () => {
    const tree = sampleTrace();
    const read = tree.root.children[0]?.children[1];
    if (!read) throw new Error('fixture changed');
    read.attributes.is_error = true;
    expect(renderTraceTree(tree)).toContain('│  │     ✗ tool reported an error');
  });

  it('closes with a summary of spans, steps, calls, errors, tokens, duration and status', () => {
    const lines = renderTraceTree(sampleTrace()).trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      '14 spans · 3 steps · 4 llm calls · 4 tool calls · 1 error · tokens 620 in / 66 out · 2.40s · ok',
    );
  });

  it('colours statuses and errors only when color is on', () => {
    const plain = renderTraceTree(sampleTrace());
    expect(plain).not.toMatch(ANSI);
    const coloured = renderTraceTree(sampleTrace(), { color: true });
    expect(coloured).toContain('\x1b[32mok\x1b[0m');
    expect(coloured).toContain('\x1b[1;31merror\x1b[0m');
    expect(coloured).toContain('\x1b[1;31m✗ ToolError: path escapes the workdir');
    expect(coloured.replace(ANSI, '')).toBe(plain);
  });

  it('prints control characters from the trace visibly instead of letting them drive the terminal', () => {
    const tree = sampleTrace();
    tree.root.name = 'run\x1b[2J\rwiped\u202e';
    const text = renderTraceTree(tree);
    expect(text).toContain('agent.run run\\u{1b}[2J\\u{d}wiped\\u{202e}  ok');
    expect(text).not.toContain('\x1b');
  });

  it('marks spans without an end as open rather than inventing a duration', () => {
    const tree: TraceTree = sampleTrace();
    tree.root.ended_at = null;
    const lines = renderTraceTree(tree).trimEnd().split('\n');
    expect(lines[1]).toBe('agent.run tiny_claw.run  ok  open  cost=unknown');
    expect(lines.at(-1)).toMatch(/ · open · ok$/);
  });

  it('shows denial, suspension and approval waits beside the span', () => {
    const tree = sampleTrace();
    const write = tree.root.children[1]?.children[1];
    if (!write) throw new Error('fixture changed');
    write.attributes.denied = true;
    const text = renderTraceTree(tree);
    expect(text).toContain('tool.call write  error  480ms  denied');
    expect(text).toContain('approval.pause approval.write  ok  460ms  waited 460ms');
  });
});
