import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { StreamAssembler } from './stream-assembler.js';

// Events typed loosely: the tests name only the fields the assembler reads.
const ev = (event: Record<string, unknown>) => event as unknown as RawMessageStreamEvent;

const start = ev({
  type: 'message_start',
  message: {
    model: 'claude-test',
    usage: {
      input_tokens: 10,
      output_tokens: 1,
      cache_read_input_tokens: 7,
      cache_creation_input_tokens: 0,
    },
  },
});

function feed(events: RawMessageStreamEvent[]): { assembler: StreamAssembler; deltas: string[] } {
  const assembler = new StreamAssembler();
  const deltas: string[] = [];
  for (const event of events) {
    const delta = assembler.push(event);
    if (delta) deltas.push(delta);
  }
  return { assembler, deltas };
}

describe('StreamAssembler', () => {
  it('is complete only after message_stop', () => {
    const { assembler } = feed([
      start,
      ev({
        type: 'message_delta',
        delta: { stop_reason: 'end_turn' },
        usage: { output_tokens: 3 },
      }),
    ]);
    expect(assembler.complete).toBe(false);
    assembler.push(ev({ type: 'message_stop' }));
    expect(assembler.complete).toBe(true);
  });

  it('joins text blocks with no separator and returns each delta for onTextDelta', () => {
    const { assembler, deltas } = feed([
      start,
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'lo' } }),
      ev({ type: 'content_block_stop', index: 0 }),
      ev({
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'text', text: ', world' },
      }),
      ev({ type: 'content_block_stop', index: 1 }),
      ev({ type: 'message_stop' }),
    ]);
    expect(deltas).toEqual(['Hel', 'lo', ', world']);
    expect(assembler.turn().text).toBe('Hello, world');
  });

  it('assembles input_json_delta pieces per block, in block order', () => {
    const { assembler } = feed([
      start,
      ev({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 't1', name: 'read', input: {} },
      }),
      ev({
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 't2', name: 'noop', input: {} },
      }),
      ev({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"pa' },
      }),
      ev({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: 'th":"a"}' },
      }),
      ev({ type: 'content_block_stop', index: 0 }),
      ev({ type: 'content_block_stop', index: 1 }),
      ev({ type: 'message_stop' }),
    ]);
    expect(assembler.turn().toolCalls).toEqual([
      { id: 't1', name: 'read', arguments: { path: 'a' } },
      { id: 't2', name: 'noop', arguments: {} },
    ]);
  });

  it('marks a tool_use block that was never closed as truncated', () => {
    const { assembler } = feed([
      start,
      ev({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 't1', name: 'read', input: {} },
      }),
      ev({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"path":"a"}' },
      }),
      ev({ type: 'message_stop' }),
    ]);
    expect(assembler.turn().toolCalls[0]).toMatchObject({
      arguments: {},
      argumentsError: expect.stringMatching(/truncated/),
    });
  });

  it('merges cumulative usage from message_delta over message_start', () => {
    const { assembler } = feed([
      start,
      ev({
        type: 'message_delta',
        delta: { stop_reason: 'end_turn' },
        usage: { output_tokens: 42, input_tokens: null, cache_creation_input_tokens: 5 },
      }),
      ev({ type: 'message_stop' }),
    ]);
    expect(assembler.turn()).toMatchObject({
      stopReason: 'end_turn',
      model: 'claude-test',
      usage: {
        inputTokens: 22,
        outputTokens: 42,
        totalTokens: 64,
        cacheReadTokens: 7,
        cacheWriteTokens: 5,
      },
    });
  });
});
