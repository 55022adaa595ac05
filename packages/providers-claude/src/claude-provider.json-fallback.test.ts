import { type FakeLlmServer, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaudeProvider } from './index.js';

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

describe('Messages-compatible servers that ignore stream: true', () => {
  it('uses a JSON message sent in answer to a streaming request, text and tool calls alike', async () => {
    server.enqueue({
      kind: 'raw',
      status: 200,
      body: JSON.stringify({
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'local-claude',
        content: [
          { type: 'text', text: 'Reading it.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.txt' } },
        ],
        stop_reason: 'tool_use',
        usage: { input_tokens: 9, output_tokens: 4 },
      }),
    });
    const provider = new ClaudeProvider({
      apiKey: 'k',
      baseURL: server.anthropicBaseUrl,
      model: 'local-claude',
      maxTokens: 100,
    });
    const deltas: string[] = [];
    const response = await provider.complete(
      { messages: [{ role: 'user', content: 'hi' }], tools: [], toolChoice: 'auto' },
      { onTextDelta: (t) => deltas.push(t) },
    );
    expect(response.message.content).toBe('Reading it.');
    expect(response.message.toolCalls).toEqual([
      { id: 'toolu_1', name: 'read', arguments: { path: 'a.txt' } },
    ]);
    expect(deltas).toEqual(['Reading it.']);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.stream).toBe(true);
  });
});
