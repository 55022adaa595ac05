import { describe, expect, it } from 'vitest';
import type { TraceSpan } from '../trace-schema.js';
import { sampleTrace } from './__fixtures__/sample-trace.js';
import {
  formatDuration,
  spanDurationMs,
  spanFailure,
  spanTokens,
  traceStats,
} from './span-facts.js';

const base: TraceSpan = {
  span_id: 'a',
  parent_id: null,
  kind: 'llm.call',
  name: 'llm.x',
  started_at: '2025-01-01T00:00:01.000Z',
  ended_at: '2025-01-01T00:00:02.500Z',
  status: 'ok',
  attributes: {},
  events: [],
  children: [],
};

describe('span facts', () => {
  it('formats durations from milliseconds to hours', () => {
    expect(formatDuration(0)).toBe('0ms');
    expect(formatDuration(840)).toBe('840ms');
    expect(formatDuration(1250)).toBe('1.25s');
    expect(formatDuration(12_340)).toBe('12.3s');
    expect(formatDuration(123_000)).toBe('2m 03s');
    expect(formatDuration(3_720_000)).toBe('1h 02m');
  });

  it('measures a span from start to end, never negative, undefined when open or unparseable', () => {
    expect(spanDurationMs(base)).toBe(1500);
    expect(spanDurationMs({ ...base, ended_at: '2025-01-01T00:00:00.000Z' })).toBe(0);
    expect(spanDurationMs({ ...base, ended_at: null })).toBeUndefined();
    expect(spanDurationMs({ ...base, started_at: 'yesterday' })).toBeUndefined();
  });

  it('reads tokens only from llm.call spans with numeric counts', () => {
    expect(spanTokens({ ...base, attributes: { input_tokens: 5 } })).toEqual({
      input: 5,
      output: 0,
    });
    expect(spanTokens({ ...base, attributes: { input_tokens: 'many' } })).toBeUndefined();
    expect(
      spanTokens({ ...base, kind: 'tool.call', attributes: { input_tokens: 5 } }),
    ).toBeUndefined();
  });

  it('finds the error of a failed span in its attributes or an exception event', () => {
    expect(spanFailure(base)).toBeUndefined();
    expect(
      spanFailure({ ...base, status: 'error', attributes: { error_type: 'ProviderError' } }),
    ).toEqual({ type: 'ProviderError', message: undefined });
    expect(
      spanFailure({
        ...base,
        status: 'error',
        events: [
          {
            timestamp: base.started_at,
            name: 'exception',
            attributes: { 'exception.message': 'boom\ntrace' },
          },
        ],
      }),
    ).toEqual({ type: undefined, message: 'boom' });
  });

  it('sums tokens over every llm.call, subagents included', () => {
    expect(traceStats(sampleTrace())).toMatchObject({
      spans: 14,
      steps: 3,
      llmCalls: 4,
      toolCalls: 4,
      errors: 1,
      tokens: { input: 620, output: 66 },
      durationMs: 2400,
    });
  });
});
