import { type LLMRequest, msg, ProviderError } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { buildChatParams, toChatMessages } from './request-mapping.js';

const settings = { model: 'gpt-4.1', maxTokens: undefined, tokenParameter: 'auto' as const };
const readTool = {
  name: 'read',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
};

describe('toChatMessages', () => {
  it('maps every role the way Chat Completions expects', () => {
    const call = { id: 'call_1', name: 'read', arguments: { path: 'a.txt' } };
    expect(
      toChatMessages([
        msg.system('be brief'),
        msg.user('read a.txt'),
        msg.assistant('', [call]),
        msg.tool(call, '1: hello'),
        msg.assistant('it says hello'),
      ]),
    ).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'read a.txt' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'read', arguments: '{"path":"a.txt"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '1: hello' },
      { role: 'assistant', content: 'it says hello' },
    ]);
  });

  it('keeps assistant text next to tool calls and omits tool_calls when there are none', () => {
    const [withCalls, plain] = toChatMessages([
      msg.assistant('let me look', [{ id: 'c', name: 'read', arguments: {} }]),
      msg.assistant(''),
    ]);
    expect(withCalls).toMatchObject({ content: 'let me look' });
    expect(plain).toEqual({ role: 'assistant', content: '' });
  });

  it('refuses a tool result without toolCallId with a bad_request error', () => {
    const error = (() => {
      try {
        toChatMessages([msg.user('x'), { role: 'tool', content: 'out' }]);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'bad_request', isRetryable: false });
    expect((error as Error).message).toMatch(/^OpenAI request failed: .*message 1 .*toolCallId/);
  });
});

describe('buildChatParams', () => {
  const request = (extra: Partial<LLMRequest> = {}): LLMRequest => ({
    messages: [msg.user('hi')],
    tools: [],
    toolChoice: 'auto',
    ...extra,
  });

  it('sends tools and tool_choice only when there are tools', () => {
    const withTools = buildChatParams(request({ tools: [readTool], toolChoice: 'none' }), settings);
    expect(withTools.tools).toEqual([
      {
        type: 'function',
        function: { name: 'read', description: 'Read a file', parameters: readTool.parameters },
      },
    ]);
    expect(withTools.tool_choice).toBe('none');
    for (const toolChoice of ['auto', 'none'] as const) {
      const without = buildChatParams(request({ toolChoice }), settings);
      expect(without).not.toHaveProperty('tools');
      expect(without).not.toHaveProperty('tool_choice');
    }
  });

  it('sends no token limit unless one is set; the request wins over the option', () => {
    expect(buildChatParams(request(), settings)).not.toHaveProperty('max_tokens');
    expect(buildChatParams(request(), { ...settings, maxTokens: 100 })).toMatchObject({
      max_tokens: 100,
    });
    expect(
      buildChatParams(request({ maxTokens: 7 }), { ...settings, maxTokens: 100 }),
    ).toMatchObject({
      max_tokens: 7,
    });
  });

  it('uses max_completion_tokens for gpt-5 and o-series models', () => {
    const params = buildChatParams(request({ maxTokens: 50 }), { ...settings, model: 'o3' });
    expect(params).toMatchObject({ max_completion_tokens: 50 });
    expect(params).not.toHaveProperty('max_tokens');
  });
});
