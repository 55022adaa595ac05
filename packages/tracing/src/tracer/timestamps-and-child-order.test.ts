import { describe, expect, it } from 'vitest';
import { isoWithMicros, orderChildren, type RunState, SpanNode } from './span-node.js';

describe('span timestamps', () => {
  it('are ISO-8601 with microseconds, whatever second, millisecond or year they fall in', () => {
    const at = Date.UTC(2026, 0, 1, 0, 0, 0, 123) + 0.456;
    expect(isoWithMicros(at)).toBe('2026-01-01T00:00:00.123456Z');
    expect(isoWithMicros(at + 1000)).toBe('2026-01-01T00:00:01.123456Z');
    expect(isoWithMicros(at + 0.5)).toBe('2026-01-01T00:00:00.123956Z');
    expect(isoWithMicros(Date.UTC(2026, 0, 1, 0, 0, 0, 999) + 0.5)).toBe(
      '2026-01-01T00:00:00.999500Z',
    );
    expect(isoWithMicros(Date.UTC(1999, 11, 31, 23, 59, 59, 7))).toBe(
      '1999-12-31T23:59:59.007000Z',
    );
    for (let ms = at; ms < at + 5000; ms += 137.25) {
      const expected = new Date(Math.floor(ms)).toISOString().slice(0, -1);
      expect(isoWithMicros(ms).startsWith(expected)).toBe(true);
    }
  });
});

describe('the order of a span’s children', () => {
  const run = (): RunState => ({
    traceId: 't',
    session: { key: 's' },
    open: new Set(),
    finished: false,
    sequence: 0,
    pendingHashes: [],
  });
  const node = (state: RunState, kind: string, parent?: SpanNode, index?: number) => {
    const span = new SpanNode({ spanId: kind, parent, kind, name: kind, run: state });
    if (index !== undefined) span.attributes.tool_call_index = index;
    return span;
  };

  it('keeps creation order and sorts each run of parallel tool calls by the model’s index', () => {
    const state = run();
    const root = node(state, 'agent.step');
    const llm = node(state, 'llm.call', root);
    const second = node(state, 'tool.call', root, 1);
    const first = node(state, 'tool.call', root, 0);
    const next = node(state, 'llm.call', root);
    const alone = node(state, 'tool.call', root, 0);
    expect(orderChildren(root.children)).toEqual([llm, first, second, next, alone]);
    // Given out of creation order, they are put back into it.
    expect(orderChildren([next, llm, alone])).toEqual([llm, next, alone]);
  });
});
