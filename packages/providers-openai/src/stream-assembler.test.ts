import { describe, expect, it } from 'vitest';
import { ChatStreamAssembler } from './stream-assembler.js';
import type { WireCompletion } from './wire-types.js';

const delta = (value: Record<string, unknown>, finish: string | null = null): WireCompletion => ({
  choices: [{ index: 0, delta: value, finish_reason: finish }],
});

function assemble(chunks: WireCompletion[]) {
  const assembler = new ChatStreamAssembler();
  const deltas: string[] = [];
  for (const chunk of chunks) {
    const text = assembler.push(chunk);
    if (text !== undefined) deltas.push(text);
  }
  return { assembler, deltas };
}

describe('ChatStreamAssembler', () => {
  it('is complete only after a finish_reason', () => {
    const { assembler } = assemble([
      delta({ role: 'assistant', content: '' }),
      delta({ content: 'hi' }),
    ]);
    expect(assembler.complete).toBe(false);
    assembler.push(delta({}, 'stop'));
    expect(assembler.complete).toBe(true);
    expect(assembler.result()).toMatchObject({ text: 'hi', stopReason: 'stop', toolCalls: [] });
  });

  it('joins tool-call fragments by index, even interleaved', () => {
    const { assembler } = assemble([
      delta({
        tool_calls: [
          { index: 0, id: 'a', type: 'function', function: { name: 'read', arguments: '' } },
        ],
      }),
      delta({
        tool_calls: [{ index: 1, id: 'b', function: { name: 'bash', arguments: '{"comm' } }],
      }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }),
      delta({ tool_calls: [{ index: 1, function: { arguments: 'and":"ls"}' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }),
      delta({}, 'tool_calls'),
    ]);
    expect(assembler.result().toolCalls).toEqual([
      { id: 'a', name: 'read', arguments: { path: 'x' } },
      { id: 'b', name: 'bash', arguments: { command: 'ls' } },
    ]);
  });

  it('copes with servers that omit index and type, repeat the name, or send object arguments', () => {
    const { assembler } = assemble([
      delta({ tool_calls: [{ id: 'a', function: { name: 'read', arguments: '{"pa' } }] }),
      delta({ tool_calls: [{ function: { name: 'read', arguments: 'th":"x"}' } }] }),
      delta({
        tool_calls: [{ id: 'b', function: { name: 'bash', arguments: { command: 'ls' } } }],
      }),
      delta({}, 'tool_calls'),
    ]);
    expect(assembler.result().toolCalls).toEqual([
      { id: 'a', name: 'read', arguments: { path: 'x' } },
      { id: 'b', name: 'bash', arguments: { command: 'ls' } },
    ]);
  });

  it('marks the call being written when the output hit the token limit', () => {
    const { assembler } = assemble([
      delta({
        tool_calls: [{ index: 0, id: 'a', function: { name: 'read', arguments: '{"path":"a"}' } }],
      }),
      delta({
        tool_calls: [
          { index: 1, id: 'b', function: { name: 'write', arguments: '{"path":"b","con' } },
        ],
      }),
      delta({}, 'length'),
    ]);
    const [first, second] = assembler.result().toolCalls;
    expect(first).toEqual({ id: 'a', name: 'read', arguments: { path: 'a' } });
    expect(second?.arguments).toEqual({});
    expect(second?.argumentsError).toMatch(/finish_reason "length"/);
  });

  it('generates missing ids and de-duplicates repeated ones', () => {
    const { assembler } = assemble([
      delta({ tool_calls: [{ index: 0, function: { name: 'read', arguments: '{}' } }] }),
      delta({
        tool_calls: [{ index: 1, id: 'same', function: { name: 'read', arguments: '{}' } }],
      }),
      delta({
        tool_calls: [{ index: 2, id: 'same', function: { name: 'read', arguments: '{}' } }],
      }),
      delta({}, 'tool_calls'),
    ]);
    const ids = assembler.result().toolCalls.map((call) => call.id);
    expect(ids[0]).toMatch(/^call_[\w-]{8,}$/);
    expect(ids[1]).toBe('same');
    expect(new Set(ids).size).toBe(3);
  });

  it('reports text deltas in order and reads usage from the final chunk', () => {
    const { assembler, deltas } = assemble([
      delta({ content: 'Hel' }),
      delta({ content: '' }),
      delta({ content: 'lo' }),
      delta({}, 'stop'),
      {
        choices: [],
        usage: {
          prompt_tokens: 10,
          completion_tokens: 4,
          total_tokens: 14,
          prompt_tokens_details: { cached_tokens: 6 },
          completion_tokens_details: { reasoning_tokens: 2 },
        },
      },
    ]);
    expect(deltas).toEqual(['Hel', 'lo']);
    expect(assembler.result().usage).toEqual({
      inputTokens: 10,
      outputTokens: 4,
      totalTokens: 14,
      cacheReadTokens: 6,
      reasoningTokens: 2,
    });
  });

  it('uses the refusal as text when the model refused', () => {
    const { assembler } = assemble([
      delta({ refusal: "I can't" }),
      delta({ refusal: ' help.' }, 'stop'),
    ]);
    expect(assembler.result().text).toBe("I can't help.");
  });
});
