import { describe, expect, it } from 'vitest';
import { MAX_RESULT_CHARS, toToolOutput } from './call-result.js';

describe('a tool answer becomes an observation', () => {
  it.each([
    [
      'text blocks, joined by lines',
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      'a\nb',
    ],
    [
      'an image, as a note',
      { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
      '[image image/png, 3 bytes, not shown]',
    ],
    [
      'audio, as a note',
      { content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] },
      '[audio audio/wav, 3 bytes, not shown]',
    ],
    [
      'a resource link',
      { content: [{ type: 'resource_link', uri: 'file:///a', name: 'a' }] },
      '[resource link: file:///a (a)]',
    ],
    [
      'a text resource, with its text',
      { content: [{ type: 'resource', resource: { uri: 'file:///a', text: 'hi' } }] },
      '[resource file:///a]\nhi',
    ],
    [
      'structured content alone, as JSON',
      { content: [], structuredContent: { a: 1 } },
      'structured content: {"a":1}',
    ],
    [
      'structured content repeated as text, once',
      { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } },
      '{"a":1}',
    ],
    ['nothing at all', { content: [] }, '(no output)'],
  ])('%s', (_name, result, content) => {
    expect(toToolOutput(result, 's')).toEqual({
      content,
      isError: false,
      server: 's',
    });
  });

  it('an answer marked isError is a failed call with the server’s message', () => {
    const output = toToolOutput(
      { content: [{ type: 'text', text: 'no such city' }], isError: true },
      's',
    );
    expect(output).toMatchObject({
      content: 'no such city',
      isError: true,
      failure: { kind: 'command_failed' },
    });
  });

  it('an answer over the limit is cut, with a note saying so', () => {
    const output = toToolOutput(
      { content: [{ type: 'text', text: 'x'.repeat(MAX_RESULT_CHARS + 10) }] },
      's',
    );
    expect(output.content.startsWith('x'.repeat(MAX_RESULT_CHARS))).toBe(true);
    expect(output.content).toMatch(/\[cut: the result was \d+ characters/);
  });
});
