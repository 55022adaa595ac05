import Anthropic, { APIConnectionError, APIError } from '@anthropic-ai/sdk';
import { type FakeLlmServer, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// Proves the fake server speaks the Messages API well enough for the real Anthropic SDK.

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

const client = (maxRetries = 0) =>
  new Anthropic({ apiKey: 'test', baseURL: server.anthropicBaseUrl, maxRetries });

const request = {
  model: 'claude-test',
  max_tokens: 1024,
  messages: [{ role: 'user' as const, content: 'hi' }],
};

describe('fake LLM server through the Anthropic SDK', () => {
  it('parses a JSON turn with text, tool_use blocks and usage (cache read and write)', async () => {
    server.enqueue({
      kind: 'turn',
      text: 'I will read it',
      toolCalls: [
        { name: 'read', arguments: { path: 'a.txt' } },
        { id: 'toolu_custom', name: 'bash', arguments: '{"command":"ls"}' },
      ],
      usage: { input: 120, output: 30, cacheRead: 100, cacheWrite: 20 },
    });
    const message = await client().messages.create(request);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'text', text: 'I will read it' },
      { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.txt' } },
      { type: 'tool_use', id: 'toolu_custom', name: 'bash', input: { command: 'ls' } },
    ]);
    expect(message.usage).toMatchObject({
      input_tokens: 120,
      output_tokens: 30,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 20,
    });
    // SDK 1.x sends the key as a bearer token (older versions used x-api-key).
    const headers = server.requests[0]?.headers ?? {};
    expect(headers['x-api-key'] ?? headers.authorization).toMatch(/^(Bearer )?test$/);
    expect(headers['anthropic-version']).toBeDefined();
  });

  it('assembles a streamed turn: text deltas, input_json_delta arguments and usage', async () => {
    server.enqueue({
      kind: 'turn',
      text: 'Streaming some text here',
      toolCalls: [
        { name: 'write', arguments: { path: 'out.txt', content: 'hello world, long enough' } },
        { name: 'bash', arguments: { command: 'echo hi' } },
      ],
      usage: { input: 7, output: 9, cacheRead: 3, cacheWrite: 4 },
      chunkSize: 3,
    });
    const stream = client().messages.stream(request);
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    const final = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Streaming some text here');
    expect(final.content).toEqual([
      { type: 'text', text: 'Streaming some text here' },
      {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'write',
        input: { path: 'out.txt', content: 'hello world, long enough' },
      },
      { type: 'tool_use', id: 'toolu_2', name: 'bash', input: { command: 'echo hi' } },
    ]);
    expect(final.stop_reason).toBe('tool_use');
    expect(final.usage).toMatchObject({
      input_tokens: 7,
      output_tokens: 9,
      cache_read_input_tokens: 3,
      cache_creation_input_tokens: 4,
    });
    expect(server.requests[0]?.stream).toBe(true);
  });

  it('retries a 429 after retry-after: 1 and then succeeds (maxRetries 2)', async () => {
    server.enqueue(
      { kind: 'error', status: 429, message: 'rate limited', headers: { 'retry-after': '1' } },
      { kind: 'turn', text: 'after the wait' },
    );
    const started = Date.now();
    const message = await client(2).messages.create(request);
    expect(message.content).toEqual([{ type: 'text', text: 'after the wait' }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.requests).toHaveLength(2);
  });

  it('fails after three 500s with maxRetries 2', async () => {
    // retry-after-ms keeps the test fast; the SDK's own backoff would add ~1.5 s.
    const fail = { kind: 'error', status: 500, headers: { 'retry-after-ms': '10' } } as const;
    server.enqueue(fail, fail, fail, { kind: 'turn', text: 'never served' });
    const error = await client(2)
      .messages.create(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(500);
    expect(server.requests).toHaveLength(3);
    expect(server.pending()).toBe(1);
  });

  it('fails at once, unretried, with the "no scripted response left" message when under-scripted', async () => {
    const error = await client(2)
      .messages.create(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(String((error as APIError).message)).toContain('no scripted response left');
    expect(server.requests).toHaveLength(1);
  });

  it('cut: raw stream iteration throws a connection error after the partial events', async () => {
    server.enqueue({
      kind: 'cut',
      text: 'partial answer',
      toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf x' } }],
    });
    const stream = await client().messages.create({ ...request, stream: true });
    const types: string[] = [];
    const error = await (async () => {
      for await (const event of stream) types.push(event.type);
    })().catch((e: unknown) => e);
    // undici reports the early close as `TypeError: terminated`; the SDK rethrows it as is.
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(APIError);
    expect(String(error)).toMatch(/terminated/);
    expect(types).toContain('content_block_stop');
    expect(types).not.toContain('message_delta');
    expect(types).not.toContain('message_stop');
  });

  it('cut: the stream helper rejects finalMessage instead of returning a partial message', async () => {
    server.enqueue({ kind: 'cut', toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] });
    const stream = client().messages.stream(request);
    await expect(stream.finalMessage()).rejects.toThrow(/terminated/);
  });

  it('cut: a non-stream request surfaces as APIConnectionError', async () => {
    server.enqueue({ kind: 'cut' });
    await expect(client().messages.create(request)).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('sse-error: a mid-stream event: error (overloaded_error) is thrown as APIError', async () => {
    server.enqueue({ kind: 'sse-error' });
    const stream = client().messages.stream(request);
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).type).toBe('overloaded_error');
    expect(server.requests).toHaveLength(1);
  });
});
