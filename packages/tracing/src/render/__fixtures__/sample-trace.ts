import type { TraceAttributes, TraceSpan, TraceTree } from '../../trace-schema.js';

/** The string a hostile tool output might leave in a replay trace. */
export const XSS_PAYLOAD = '</script><script>window.__pwned = 1; alert(1)</script>';

const T0 = Date.parse('2025-06-01T10:00:00.000Z');
let nextId = 0;

function span(
  kind: string,
  name: string,
  fromMs: number,
  toMs: number | null,
  extra: Partial<Omit<TraceSpan, 'children'>> & { children?: TraceSpan[] } = {},
): TraceSpan {
  nextId += 1;
  const id = nextId.toString(16).padStart(16, '0');
  const children = (extra.children ?? []).map((child) => ({ ...child, parent_id: id }));
  return {
    span_id: id,
    parent_id: null,
    kind,
    name,
    started_at: new Date(T0 + fromMs).toISOString(),
    ended_at: toMs === null ? null : new Date(T0 + toMs).toISOString(),
    status: 'ok',
    attributes: {},
    events: [],
    ...extra,
    children,
  };
}

const llm = (from: number, to: number, input: number, output: number, more: TraceAttributes = {}) =>
  span('llm.call', 'llm.openai', from, to, {
    attributes: { provider: 'openai', model: 'gpt-4.1', input_tokens: input, output_tokens: output, ...more },
  });

/**
 * A run of three steps: two parallel reads, a failed write, an explore tool with a subagent, an
 * approval pause, a compaction event and a replay attribute holding {@link XSS_PAYLOAD}.
 */
export function sampleTrace(): TraceTree {
  nextId = 0;
  const root = span('agent.run', 'tiny_claw.run', 0, 2400, {
    attributes: { mode: 'act', max_steps: 20 },
    children: [
      span('agent.step', 'step.1', 10, 900, {
        attributes: { step: 1, phase: 'act' },
        events: [
          { timestamp: new Date(T0 + 12).toISOString(), name: 'context.compacted', attributes: { level: 1 } },
        ],
        children: [
          llm(20, 500, 120, 11),
          span('tool.call', 'tool.read', 510, 540, {
            attributes: { tool_name: 'read', tool_call_index: 0, observation_preview: XSS_PAYLOAD },
          }),
          span('tool.call', 'tool.read', 512, 560, {
            attributes: { tool_name: 'read', tool_call_index: 1 },
          }),
          span('tool.call', 'tool.explore', 600, 880, {
            attributes: { tool_name: 'explore', tool_call_index: 2 },
            children: [
              span('subagent.run', 'explorer', 610, 870, {
                attributes: { agent: 'explorer' },
                children: [llm(620, 700, 40, 5)],
              }),
            ],
          }),
        ],
      }),
      span('agent.step', 'step.2', 910, 1900, {
        attributes: { step: 2, phase: 'act' },
        children: [
          llm(920, 1400, 200, 20),
          span('tool.call', 'tool.write', 1410, 1890, {
            status: 'error',
            attributes: {
              tool_name: 'write',
              tool_call_index: 0,
              is_error: true,
              error_type: 'ToolError',
              error_message: 'path escapes the workdir: ../../etc/passwd\nsecond line',
            },
            children: [
              span('approval.pause', 'approval.write', 1420, 1880, {
                attributes: { approval_id: 'ap_1', wait_ms: 460 },
              }),
            ],
          }),
        ],
      }),
      span('agent.step', 'step.3', 1910, 2390, {
        attributes: { step: 3, phase: 'act' },
        children: [llm(1920, 2380, 260, 30)],
      }),
    ],
  });
  return {
    schema_version: 1,
    trace_id: 'trace-0001',
    session: { key: 'cli-1a2b3c4d5e6f-default', source: 'cli' },
    capture_mode: 'replay',
    root,
  };
}
