import { type FakeLlmServer, startFakeLlmServer } from '@tiny-claw/testkit';
import OpenAI, { APIConnectionError, APIError } from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// Proves the fake server speaks Chat Completions well enough for the real `openai` SDK.

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

const client = (maxRetries = 0) =>
  new OpenAI({ apiKey: 'test', baseURL: server.openaiBaseUrl, maxRetries });

const request = {
  model: 'gpt-test',
  messages: [{ role: 'user' as const, content: 'hi' }],
};

describe('fake LLM server through the openai SDK', () => {
  it('parses a JSON turn with text, tool calls and usage (cached and reasoning tokens)', async () => {
    server.enqueue({
      kind: 'turn',
      text: 'I will read it',
      toolCalls: [
        { name: 'read', arguments: { path: 'a.txt' } },
        { id: 'custom', name: 'bash', arguments: '{"command":"ls"}' },
      ],
      usage: { input: 120, output: 30, cacheRead: 100, reasoning: 12 },
    });
    const completion = await client().chat.completions.create(request);
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBe('I will read it');
    const calls = (choice?.message.tool_calls ?? []).map((call) =>
      call.type === 'function'
        ? { id: call.id, name: call.function.name, args: JSON.parse(call.function.arguments) }
        : call,
    );
    expect(calls).toEqual([
      { id: 'call_1', name: 'read', args: { path: 'a.txt' } },
      { id: 'custom', name: 'bash', args: { command: 'ls' } },
    ]);
    expect(completion.usage).toMatchObject({
      prompt_tokens: 120,
      completion_tokens: 30,
      total_tokens: 150,
      prompt_tokens_details: { cached_tokens: 100 },
      completion_tokens_details: { reasoning_tokens: 12 },
    });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test');
  });

  it('assembles a streamed turn: text deltas, tool-call arguments and the usage chunk', async () => {
    server.enqueue({
      kind: 'turn',
      text: 'Streaming some text here',
      toolCalls: [
        { name: 'write', arguments: { path: 'out.txt', content: 'hello world, long enough' } },
        { name: 'bash', arguments: { command: 'echo hi' } },
      ],
      usage: { input: 7, output: 9, cacheRead: 3, reasoning: 2 },
      chunkSize: 3,
    });
    const stream = client().chat.completions.stream({
      ...request,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    stream.on('content', (delta) => deltas.push(delta));
    const final = await stream.finalChatCompletion();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Streaming some text here');
    const message = final.choices[0]?.message;
    expect(message?.content).toBe('Streaming some text here');
    expect(
      message?.tool_calls?.map((call) =>
        call.type === 'function'
          ? [call.id, call.function.name, JSON.parse(call.function.arguments)]
          : [],
      ),
    ).toEqual([
      ['call_1', 'write', { path: 'out.txt', content: 'hello world, long enough' }],
      ['call_2', 'bash', { command: 'echo hi' }],
    ]);
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(final.usage).toMatchObject({
      prompt_tokens: 7,
      completion_tokens: 9,
      prompt_tokens_details: { cached_tokens: 3 },
      completion_tokens_details: { reasoning_tokens: 2 },
    });
    expect(server.requests[0]?.stream).toBe(true);
  });

  it('retries a 429 after retry-after: 1 and then succeeds (maxRetries 2)', async () => {
    server.enqueue(
      { kind: 'error', status: 429, message: 'rate limited', headers: { 'retry-after': '1' } },
      { kind: 'turn', text: 'after the wait' },
    );
    const started = Date.now();
    const completion = await client(2).chat.completions.create(request);
    expect(completion.choices[0]?.message.content).toBe('after the wait');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.requests).toHaveLength(2);
  });

  it('fails after three 500s with maxRetries 2', async () => {
    // retry-after-ms keeps the test fast; the SDK's own backoff would add ~1.5 s.
    const fail = { kind: 'error', status: 500, headers: { 'retry-after-ms': '10' } } as const;
    server.enqueue(fail, fail, fail, { kind: 'turn', text: 'never served' });
    const error = await client(2)
      .chat.completions.create(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(500);
    expect(server.requests).toHaveLength(3);
    expect(server.pending()).toBe(1);
  });

  it('fails at once, unretried, with the "no scripted response left" message when under-scripted', async () => {
    const error = await client(2)
      .chat.completions.create(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(String((error as APIError).message)).toContain('no scripted response left');
    expect(server.requests).toHaveLength(1);
  });

  it('cut: stream iteration throws a connection error after the partial deltas', async () => {
    server.enqueue({
      kind: 'cut',
      text: 'partial answer',
      toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf x' } }],
    });
    const stream = await client().chat.completions.create({ ...request, stream: true });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta;
        if (delta?.content) seen.push(delta.content);
        expect(chunk.choices[0]?.finish_reason ?? null).toBeNull();
      }
    })().catch((e: unknown) => e);
    // undici reports the early close as `TypeError: terminated`; the SDK rethrows it as is.
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(APIError);
    expect(String(error)).toMatch(/terminated/);
    expect(seen.join('')).toBe('partial answer');
  });

  it('cut: the stream helper rejects finalChatCompletion instead of returning a partial message', async () => {
    server.enqueue({ kind: 'cut', toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] });
    const stream = client().chat.completions.stream(request);
    await expect(stream.finalChatCompletion()).rejects.toThrow();
  });

  it('cut: a non-stream request surfaces as APIConnectionError', async () => {
    server.enqueue({ kind: 'cut' });
    await expect(client().chat.completions.create(request)).rejects.toBeInstanceOf(
      APIConnectionError,
    );
  });

  it('sse-error: a mid-stream {"error":…} chunk is thrown as APIError', async () => {
    server.enqueue({ kind: 'sse-error', errorType: 'server_error' });
    const stream = await client().chat.completions.create({ ...request, stream: true });
    const error = await (async () => {
      for await (const _ of stream) {
        // drain
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).type).toBe('server_error');
  });
});
