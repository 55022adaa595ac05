import { describe, expect, it } from 'vitest';
import { encodeSse, parseSse } from './sse.js';
import { argumentsText, chunkText, fromScript } from './steps.js';

describe('fromScript', () => {
  it('turns each scripted turn into a turn step, keeping ids, raw arguments and usage', () => {
    expect(
      fromScript({
        turns: [
          { text: 'looking', tool_calls: [{ name: 'read', arguments: { path: 'a' } }] },
          { tool_calls: [{ id: 'c1', name: 'bash', arguments: '{"bad"' }, { name: 'noargs' }] },
          { text: 'done', usage: { input_tokens: 3, output_tokens: 2 } },
          {},
        ],
      }),
    ).toEqual([
      { kind: 'turn', text: 'looking', toolCalls: [{ name: 'read', arguments: { path: 'a' } }] },
      {
        kind: 'turn',
        toolCalls: [
          { id: 'c1', name: 'bash', arguments: '{"bad"' },
          { name: 'noargs', arguments: {} },
        ],
      },
      { kind: 'turn', text: 'done', usage: { input: 3, output: 2 } },
      { kind: 'turn' },
    ]);
  });
});

describe('chunkText', () => {
  it('splits by code points so a surrogate pair is never cut in half', () => {
    expect(chunkText('ab😀cd', 3)).toEqual(['ab😀', 'cd']);
    expect(chunkText('', 8)).toEqual([]);
    expect(chunkText('abc', 0)).toEqual(['a', 'b', 'c']);
  });
});

describe('argumentsText', () => {
  it('serialises objects and passes raw strings verbatim', () => {
    expect(argumentsText({ a: 1 })).toBe('{"a":1}');
    expect(argumentsText('{"a":')).toBe('{"a":');
  });
});

describe('SSE encoding', () => {
  it('round-trips named, data-only and multi-line events', () => {
    const events = [
      { event: 'message_start', data: '{"a":1}' },
      { data: '[DONE]' },
      { data: 'line one\nline two' },
    ];
    const wire = events.map(encodeSse).join('');
    expect(wire.startsWith('event: message_start\ndata: {"a":1}\n\n')).toBe(true);
    expect(parseSse(wire)).toEqual(events);
  });

  it('ignores comments and tolerates CRLF line endings', () => {
    expect(parseSse(': keep-alive\r\n\r\nevent: ping\r\ndata: {}\r\n\r\n')).toEqual([
      { event: 'ping', data: '{}' },
    ]);
  });
});
