import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from './server.js';
import { parseSse } from './sse.js';

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

function complete(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${server.openaiBaseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test' },
    body: JSON.stringify({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      ...body,
    }),
  });
}

type Chunk = {
  object: string;
  usage?: unknown;
  choices: Array<{
    index: number;
    finish_reason: string | null;
    delta: {
      role?: string;
      content?: string;
      tool_calls?: Array<{
        index: number;
        id?: string;
        type?: string;
        function: { name?: string; arguments: string };
      }>;
    };
  }>;
};

async function chunks(response: Response): Promise<{ chunks: Chunk[]; last: string }> {
  const events = parseSse(await response.text());
  const data = events.map((event) => event.data);
  return {
    chunks: data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d) as Chunk),
    last: data.at(-1) ?? '',
  };
}

describe('OpenAI Chat Completions wire format', () => {
  it('answers a non-stream turn with a chat.completion carrying text, tool calls and usage', async () => {
    server.enqueue({
      kind: 'turn',
      text: 'reading',
      toolCalls: [
        { name: 'read', arguments: { path: 'a.txt' } },
        { id: 'mine', name: 'bash', arguments: '{"command":' },
      ],
      usage: { input: 100, output: 20, cacheRead: 40, reasoning: 7 },
    });
    const response = await complete({});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-request-id')).toBe('req_fake_1');
    expect(await response.json()).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-test',
      system_fingerprint: null,
      choices: [
        {
          index: 0,
          logprobs: null,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'reading',
            refusal: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'read', arguments: '{"path":"a.txt"}' },
              },
              {
                id: 'mine',
                type: 'function',
                function: { name: 'bash', arguments: '{"command":' },
              },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: 100,
        completion_tokens: 20,
        total_tokens: 120,
        prompt_tokens_details: { cached_tokens: 40, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 7,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
    });
  });

  it('sends null content for a tool-only turn and stop for a text-only turn', async () => {
    server.enqueue(
      { kind: 'turn', toolCalls: [{ name: 'read', arguments: {} }] },
      { kind: 'turn', text: 'done' },
    );
    const first = (await (await complete({})).json()) as Chunk & {
      choices: [{ message: { content: unknown } }];
    };
    expect(first.choices[0].message.content).toBeNull();
    const second = (await (await complete({})).json()) as {
      choices: [{ message: Record<string, unknown>; finish_reason: string }];
    };
    expect(second.choices[0].message).toEqual({
      role: 'assistant',
      content: 'done',
      refusal: null,
    });
    expect(second.choices[0].finish_reason).toBe('stop');
  });

  it('streams role, text deltas, indexed tool-call deltas, finish, usage and [DONE] in order', async () => {
    server.enqueue({
      kind: 'turn',
      text: 'Hello, streaming world',
      toolCalls: [
        { name: 'read', arguments: { path: 'src/index.ts' } },
        { name: 'bash', arguments: { command: 'ls -la' } },
      ],
      usage: { input: 9, output: 4 },
      chunkSize: 5,
    });
    const response = await complete({ stream: true, stream_options: { include_usage: true } });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { chunks: all, last } = await chunks(response);
    expect(last).toBe('[DONE]');
    for (const chunk of all) expect(chunk.object).toBe('chat.completion.chunk');

    const deltas = all.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
    expect(deltas[0]).toMatchObject({ role: 'assistant', content: '' });
    const textDeltas = deltas.map((d) => d.content).filter((c) => c);
    expect(textDeltas).toEqual(['Hello', ', str', 'eamin', 'g wor', 'ld']);

    const calls = deltas.flatMap((d) => d.tool_calls ?? []);
    const headers = calls.filter((call) => call.id !== undefined);
    expect(headers).toEqual([
      { index: 0, id: 'call_1', type: 'function', function: { name: 'read', arguments: '' } },
      { index: 1, id: 'call_2', type: 'function', function: { name: 'bash', arguments: '' } },
    ]);
    const args = [0, 1].map((index) =>
      calls
        .filter((call) => call.index === index)
        .map((call) => call.function.arguments)
        .join(''),
    );
    expect(args.map((text) => JSON.parse(text))).toEqual([
      { path: 'src/index.ts' },
      { command: 'ls -la' },
    ]);
    expect(calls.filter((call) => call.id === undefined).length).toBeGreaterThan(4);

    const finish = all.at(-2);
    expect(finish?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(finish?.usage).toBeNull();
    const usageChunk = all.at(-1);
    expect(usageChunk?.choices).toEqual([]);
    expect(usageChunk?.usage).toMatchObject({
      prompt_tokens: 9,
      completion_tokens: 4,
      total_tokens: 13,
    });
  });

  it('omits the usage chunk and usage fields when include_usage was not asked', async () => {
    server.enqueue({ kind: 'turn', text: 'hi', usage: { input: 1, output: 1 } });
    const { chunks: all, last } = await chunks(await complete({ stream: true }));
    expect(last).toBe('[DONE]');
    expect(all.every((chunk) => !('usage' in chunk))).toBe(true);
    expect(all.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('translates an Anthropic-named finish reason override (max_tokens → length)', async () => {
    server.enqueue({ kind: 'turn', text: 'cut', finishReason: 'max_tokens' });
    server.enqueue({ kind: 'turn', text: 'odd', finishReason: 'content_filter' });
    const first = (await (await complete({})).json()) as { choices: [{ finish_reason: string }] };
    const second = (await (await complete({})).json()) as { choices: [{ finish_reason: string }] };
    expect(first.choices[0].finish_reason).toBe('length');
    expect(second.choices[0].finish_reason).toBe('content_filter');
  });

  it('answers an error step with { error: { message, type, code } } and the scripted headers', async () => {
    server.enqueue(
      { kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '1' } },
      { kind: 'error', status: 400, errorType: 'context_length_exceeded' },
    );
    const limited = await complete({});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toEqual({
      error: { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
    const tooLong = await complete({});
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({
      error: { type: 'context_length_exceeded', code: 'context_length_exceeded' },
    });
  });

  it('puts a data-only {"error":…} event mid-stream for sse-error and never sends [DONE]', async () => {
    server.enqueue({ kind: 'sse-error' });
    const events = parseSse(await (await complete({ stream: true })).text());
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[1]?.data ?? '')).toMatchObject({
      error: { type: 'overloaded_error' },
    });
  });
});
