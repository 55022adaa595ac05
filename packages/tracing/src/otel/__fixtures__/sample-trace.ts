import type { TraceSpan, TraceTree } from '../../trace-schema.js';

/**
 * A span with defaults for everything a test does not care about.
 *
 * @example
 * const step = traceSpan({ span_id: '00000000000000a2', kind: 'agent.step', name: 'step.1' });
 */
export function traceSpan(fields: Partial<TraceSpan> & Pick<TraceSpan, 'span_id' | 'kind'>): TraceSpan {
  return {
    parent_id: null,
    name: fields.kind,
    started_at: '2025-03-04T05:06:07.000Z',
    ended_at: '2025-03-04T05:06:08.000Z',
    status: 'ok',
    attributes: {},
    events: [],
    children: [],
    ...fields,
  };
}

/** Trace id of {@link sampleTrace}: a run id, already a valid OTel trace id. */
export const SAMPLE_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/**
 * `agent.run > agent.step > (llm.call, tool.call ok, tool.call failed)`, the way the tracer writes it
 * in metadata mode, with sub-millisecond timestamps.
 *
 * @example
 * const tree = sampleTrace();
 */
export function sampleTrace(): TraceTree {
  return {
    schema_version: 1,
    trace_id: SAMPLE_TRACE_ID,
    session: { key: 'cli-1a2b3c4d5e6f-default', source: 'cli' },
    capture_mode: 'metadata',
    root: traceSpan({
      span_id: '00f067aa0ba902b7',
      kind: 'agent.run',
      name: 'tiny_claw.run',
      started_at: '2025-03-04T05:06:07.100000Z',
      ended_at: '2025-03-04T05:06:09.900500Z',
      attributes: {
        run_id: SAMPLE_TRACE_ID,
        session_key: 'cli-1a2b3c4d5e6f-default',
        mode: 'act',
        stop_reason: 'final_answer',
        steps: 1,
      },
      children: [
        traceSpan({
          span_id: 'a1a1a1a1a1a1a1a1',
          parent_id: '00f067aa0ba902b7',
          kind: 'agent.step',
          name: 'step.1',
          started_at: '2025-03-04T05:06:07.200Z',
          ended_at: '2025-03-04T05:06:09.800Z',
          attributes: { step: 1, phase: 'act', message_count: 3 },
          events: [
            {
              timestamp: '2025-03-04T05:06:07.250Z',
              name: 'context.compacted',
              attributes: { original_chars: 9000, compacted_chars: 4000, still_over_budget: false },
            },
          ],
          children: [
            traceSpan({
              span_id: 'b2b2b2b2b2b2b2b2',
              parent_id: 'a1a1a1a1a1a1a1a1',
              kind: 'llm.call',
              name: 'llm.claude',
              started_at: '2025-03-04T05:06:07.300123Z',
              ended_at: '2025-03-04T05:06:08.456789Z',
              attributes: {
                provider: 'claude',
                message_count: 3,
                model: 'claude-sonnet-4-20250514',
                input_tokens: 829,
                output_tokens: 119,
                total_tokens: 948,
                cache_read_tokens: 512,
                latency_ms: 1157,
              },
            }),
            traceSpan({
              span_id: 'c3c3c3c3c3c3c3c3',
              parent_id: 'a1a1a1a1a1a1a1a1',
              kind: 'tool.call',
              name: 'read',
              started_at: '2025-03-04T05:06:08.500Z',
              ended_at: '2025-03-04T05:06:08.600Z',
              attributes: {
                'tool.name': 'read',
                'tool.call_id': 'call_read_1',
                tool_call_index: 0,
                is_error: false,
                tool_arguments_hash: 'ab12',
                tool_arguments_keys: ['path'],
                tool_arguments_chars: 17,
              },
            }),
            traceSpan({
              span_id: 'd4d4d4d4d4d4d4d4',
              parent_id: 'a1a1a1a1a1a1a1a1',
              kind: 'tool.call',
              name: 'bash',
              started_at: '2025-03-04T05:06:08.500Z',
              ended_at: '2025-03-04T05:06:09.700Z',
              status: 'error',
              attributes: {
                'tool.name': 'bash',
                'tool.call_id': 'call_bash_2',
                tool_call_index: 1,
                is_error: true,
                error_type: 'timeout',
                retryable: null,
              },
            }),
          ],
        }),
      ],
    }),
  };
}
