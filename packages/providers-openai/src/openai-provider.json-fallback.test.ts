import { type FakeLlmServer, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIProvider } from './index.js';

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

const completion = (message: Record<string, unknown>, finish = 'stop') =>
  JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'local-model',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
    usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
  });

describe('OpenAI-compatible servers that ignore stream: true', () => {
  it('uses a JSON completion sent in answer to a streaming request, text and tool calls alike', async () => {
    server.enqueue(
      { kind: 'raw', status: 200, body: completion({ content: 'hello from JSON' }) },
      {
        kind: 'raw',
        status: 200,
        body: completion(
          {
            content: null,
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } },
            ],
          },
          'tool_calls',
        ),
      },
    );
    const provider = new OpenAIProvider({
      apiKey: 'k',
      baseURL: server.openaiBaseUrl,
      model: 'local-model',
    });
    const deltas: string[] = [];
    const request = {
      messages: [{ role: 'user' as const, content: 'hi' }],
      tools: [],
      toolChoice: 'auto' as const,
    };
    const first = await provider.complete(request, { onTextDelta: (t) => deltas.push(t) });
    expect(first.message.content).toBe('hello from JSON');
    expect(first.usage).toMatchObject({ inputTokens: 7, outputTokens: 3 });
    expect(deltas).toEqual(['hello from JSON']);
    const second = await provider.complete(request);
    expect(second.message.toolCalls).toEqual([
      { id: 'c1', name: 'read', arguments: { path: 'a' } },
    ]);
    expect(server.requests.every((r) => r.stream)).toBe(true);
  });
});
