import { type LLMRequest, msg } from '@tiny-claw/core';
import { type FakeLlmServer, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIProvider, type OpenAIProviderOptions } from './index.js';

// Request and response mapping, through the real `openai` SDK against the loopback fake server.

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

const provider = (options: Partial<OpenAIProviderOptions> = {}) =>
  new OpenAIProvider({
    apiKey: 'sk-test-key',
    baseURL: server.openaiBaseUrl,
    model: 'gpt-test',
    ...options,
  });

const request = (extra: Partial<LLMRequest> = {}): LLMRequest => ({
  messages: [msg.user('hi')],
  tools: [],
  toolChoice: 'auto',
  ...extra,
});

const readTool = {
  name: 'read',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

type Body = Record<string, unknown>;
const sent = (index = 0) => server.requests[index]?.body as Body;

describe('request mapping (what reaches the server)', () => {
  it('sends the conversation, tools, tool_choice, stream flag and include_usage', async () => {
    server.enqueue({ kind: 'turn', text: 'ok' });
    const call = { id: 'call_9', name: 'read', arguments: { path: 'a.txt' } };
    await provider().complete(
      request({
        messages: [
          msg.system('be brief'),
          msg.user('read a.txt'),
          msg.assistant('', [call]),
          msg.tool(call, '1: hello'),
        ],
        tools: [readTool],
      }),
    );
    expect(sent()).toMatchObject({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      tool_choice: 'auto',
      tools: [{ type: 'function', function: readTool }],
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'read a.txt' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_9',
              type: 'function',
              function: { name: 'read', arguments: '{"path":"a.txt"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_9', content: '1: hello' },
      ],
    });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test-key');
  });

  it('sends neither tools nor tool_choice without tools (think mode: toolChoice none)', async () => {
    server.enqueue({ kind: 'turn', text: 'thinking' });
    await provider().complete(request({ toolChoice: 'none' }));
    expect(sent()).not.toHaveProperty('tools');
    expect(sent()).not.toHaveProperty('tool_choice');
  });

  it('sends no stream fields when streaming is off', async () => {
    server.enqueue({ kind: 'turn', text: 'plain' });
    await provider({ stream: false }).complete(request());
    expect(sent().stream).toBe(false);
    expect(sent()).not.toHaveProperty('stream_options');
  });

  it('sends max_tokens for classic models and max_completion_tokens for gpt-5 / o-series', async () => {
    server.enqueue({ kind: 'turn' }, { kind: 'turn' }, { kind: 'turn' }, { kind: 'turn' });
    await provider({ maxTokens: 300 }).complete(request());
    await provider({ model: 'gpt-5-mini', maxTokens: 300 }).complete(request());
    await provider({ model: 'o4-mini' }).complete(request({ maxTokens: 42 }));
    await provider({ model: 'gpt-5', tokenParameter: 'max_tokens' }).complete(
      request({ maxTokens: 5 }),
    );
    expect(sent(0)).toMatchObject({ max_tokens: 300 });
    expect(sent(0)).not.toHaveProperty('max_completion_tokens');
    expect(sent(1)).toMatchObject({ max_completion_tokens: 300 });
    expect(sent(1)).not.toHaveProperty('max_tokens');
    expect(sent(2)).toMatchObject({ max_completion_tokens: 42 });
    expect(sent(3)).toMatchObject({ max_tokens: 5 });
  });

  it('refuses a tool result without toolCallId before sending anything', async () => {
    const error = await provider()
      .complete(request({ messages: [msg.user('x'), { role: 'tool', content: 'orphan' }] }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'bad_request' });
    expect(server.requests).toHaveLength(0);
  });
});

describe.each([
  ['JSON', false],
  ['SSE', true],
])('a %s turn', (_label, stream) => {
  it('maps text, tool calls, usage (cached and reasoning), stop reason and model', async () => {
    server.enqueue({
      kind: 'turn',
      text: 'I will read it',
      toolCalls: [
        { id: 'call_a', name: 'read', arguments: { path: 'a.txt' } },
        { id: 'call_b', name: 'bash', arguments: '{"command":"ls -la"}' },
      ],
      usage: { input: 120, output: 30, cacheRead: 100, reasoning: 12 },
      model: 'gpt-test-2025',
      chunkSize: 3,
    });
    const response = await provider({ stream }).complete(request({ tools: [readTool] }));
    expect(response).toEqual({
      provider: 'openai',
      model: 'gpt-test-2025',
      stopReason: 'tool_calls',
      message: {
        role: 'assistant',
        content: 'I will read it',
        toolCalls: [
          { id: 'call_a', name: 'read', arguments: { path: 'a.txt' } },
          { id: 'call_b', name: 'bash', arguments: { command: 'ls -la' } },
        ],
      },
      usage: {
        inputTokens: 120,
        outputTokens: 30,
        totalTokens: 150,
        cacheReadTokens: 100,
        reasoningTokens: 12,
      },
    });
  });

  it('maps a text-only turn with empty content to an empty string (answering an empty turn is the loop’s job)', async () => {
    server.enqueue({ kind: 'turn', text: '' });
    const response = await provider({ stream }).complete(request());
    expect(response.message).toEqual({ role: 'assistant', content: '' });
    expect(response.stopReason).toBe('stop');
  });

  it('keeps calls with unusable arguments, each with an argumentsError, and never throws', async () => {
    const raws = ['{"path": "a"', 'null', '[]', '"str"', '{"timeout":1e309}', ''];
    server.enqueue({
      kind: 'turn',
      toolCalls: raws.map((raw, i) => ({ id: `c${i}`, name: 'read', arguments: raw })),
    });
    const calls =
      (await provider({ stream }).complete(request({ tools: [readTool] }))).message.toolCalls ?? [];
    expect(calls.map((call) => call.id)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
    for (const call of calls) expect(call.arguments).toEqual({});
    expect(calls.map((call) => call.argumentsError)).toEqual([
      expect.stringMatching(/not valid JSON/),
      'the arguments must be a JSON object, not null',
      'the arguments must be a JSON object, not an array',
      'the arguments must be a JSON object, not a string',
      expect.stringMatching(/out of range/),
      undefined,
    ]);
  });

  it('marks the tool call cut off by finish_reason length as incomplete', async () => {
    server.enqueue({
      kind: 'turn',
      toolCalls: [
        { id: 'ok', name: 'read', arguments: { path: 'a' } },
        { id: 'cut', name: 'write', arguments: '{"path":"b","content":"par' },
      ],
      finishReason: 'length',
    });
    const response = await provider({ stream }).complete(request({ tools: [readTool] }));
    expect(response.stopReason).toBe('length');
    expect(response.message.toolCalls).toEqual([
      { id: 'ok', name: 'read', arguments: { path: 'a' } },
      { id: 'cut', name: 'write', arguments: {}, argumentsError: expect.stringMatching(/length/) },
    ]);
  });
});

describe('streaming', () => {
  it('delivers text deltas to onTextDelta as they arrive, in order', async () => {
    const text = 'Streaming some text, piece by piece.';
    server.enqueue({ kind: 'turn', text, chunkSize: 4 });
    const deltas: string[] = [];
    const response = await provider().complete(request(), { onTextDelta: (d) => deltas.push(d) });
    expect(deltas.length).toBe(Math.ceil(text.length / 4));
    expect(deltas.join('')).toBe(text);
    expect(response.message.content).toBe(text);
  });
});

describe('OpenAI-compatible deviations', () => {
  it('accepts arguments as an object and tool calls without type (JSON)', async () => {
    server.enqueue({
      kind: 'raw',
      status: 200,
      body: JSON.stringify({
        id: 'x',
        model: 'compat',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'c1', function: { name: 'bash', arguments: { command: 'ls' } } }],
            },
          },
        ],
      }),
    });
    const response = await provider({ stream: false }).complete(request({ tools: [readTool] }));
    expect(response.message.toolCalls).toEqual([
      { id: 'c1', name: 'bash', arguments: { command: 'ls' } },
    ]);
    expect(response.usage).toBeUndefined();
  });

  it('accepts object arguments, no index, no type and no [DONE] in a stream', async () => {
    const chunk = (delta: unknown, finish: string | null = null) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    server.enqueue({
      kind: 'raw',
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body:
        chunk({ role: 'assistant', content: 'ok' }) +
        chunk({
          tool_calls: [{ id: 'c1', function: { name: 'bash', arguments: { command: 'ls' } } }],
        }) +
        chunk({}, 'tool_calls'),
    });
    const response = await provider().complete(request({ tools: [readTool] }));
    expect(response.message).toEqual({
      role: 'assistant',
      content: 'ok',
      toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'ls' } }],
    });
  });

  it('reports a 200 whose JSON body does not parse as invalid_response, unretried', async () => {
    server.enqueue({ kind: 'raw', status: 200, body: '{"choices": [' }, { kind: 'turn' });
    await expect(provider({ stream: false }).complete(request())).rejects.toMatchObject({
      kind: 'invalid_response',
      message: expect.stringMatching(/^OpenAI request failed: 200 .*not valid JSON/),
    });
    expect(server.requests).toHaveLength(1);
  });

  it('reports a 200 without choices as invalid_response', async () => {
    server.enqueue({ kind: 'raw', status: 200, body: '{"object":"chat.completion","choices":[]}' });
    await expect(provider({ stream: false }).complete(request())).rejects.toMatchObject({
      kind: 'invalid_response',
      message: expect.stringMatching(/^OpenAI request failed: 200 .*no choices/),
    });
  });
});
