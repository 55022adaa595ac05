import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from './server.js';
import { parseSse } from './sse.js';

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

function messages(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${server.anthropicBaseUrl}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': 'test',
      'anthropic-version': '2023-06-01',
    },
    body: JSON.stringify({
      model: 'claude-test',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'hi' }],
      ...body,
    }),
  });
}

type Event = { type: string; index?: number; delta?: Record<string, unknown> } & Record<
  string,
  unknown
>;

async function events(response: Response): Promise<Array<{ name?: string; body: Event }>> {
  return parseSse(await response.text()).map((event) => ({
    name: event.event,
    body: JSON.parse(event.data) as Event,
  }));
}

describe('Anthropic Messages wire format', () => {
  it('answers a non-stream turn with a message of text and tool_use blocks and full usage', async () => {
    server.enqueue({
      kind: 'turn',
      text: 'let me look',
      toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }],
      usage: { input: 50, output: 10, cacheRead: 30, cacheWrite: 5 },
    });
    const response = await messages({});
    expect(response.status).toBe(200);
    expect(response.headers.get('request-id')).toBe('req_fake_1');
    expect(await response.json()).toEqual({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [
        { type: 'text', text: 'let me look' },
        { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.txt' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 50,
        output_tokens: 10,
        cache_read_input_tokens: 30,
        cache_creation_input_tokens: 5,
      },
    });
  });

  it('sends an empty content list for an empty turn and end_turn as stop reason', async () => {
    server.enqueue({ kind: 'turn' });
    const body = (await (await messages({})).json()) as Record<string, unknown>;
    expect(body.content).toEqual([]);
    expect(body.stop_reason).toBe('end_turn');
  });

  it('passes raw-string tool input parsed when it is JSON and verbatim when it is not', async () => {
    server.enqueue({
      kind: 'turn',
      toolCalls: [
        { name: 'a', arguments: '[]' },
        { name: 'b', arguments: 'null' },
        { name: 'c', arguments: '{"path": "a"' },
      ],
    });
    const body = (await (await messages({})).json()) as { content: Array<{ input: unknown }> };
    expect(body.content.map((block) => block.input)).toEqual([[], null, '{"path": "a"']);
  });

  it('streams message_start, ping, text and input_json blocks, message_delta and message_stop', async () => {
    server.enqueue({
      kind: 'turn',
      text: 'Looking at it now',
      toolCalls: [{ id: 'toolu_x', name: 'bash', arguments: { command: 'ls' } }],
      usage: { input: 12, output: 34, cacheRead: 5, cacheWrite: 6 },
      chunkSize: 4,
    });
    const response = await messages({ stream: true });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const all = await events(response);
    for (const event of all) expect(event.name).toBe(event.body.type);
    expect(all.map((event) => event.name)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      ...Array(5).fill('content_block_delta'),
      'content_block_stop',
      'content_block_start',
      ...Array(4).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(all[0]?.body.message).toMatchObject({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [],
      stop_reason: null,
      usage: {
        input_tokens: 12,
        output_tokens: 0,
        cache_read_input_tokens: 5,
        cache_creation_input_tokens: 6,
      },
    });
    const text = all
      .filter((event) => event.body.index === 0 && event.body.delta?.type === 'text_delta')
      .map((event) => event.body.delta?.text)
      .join('');
    expect(text).toBe('Looking at it now');
    expect(all.find((e) => e.name === 'content_block_start' && e.body.index === 1)?.body).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_x', name: 'bash', input: {} },
    });
    const json = all
      .filter((event) => event.body.index === 1 && event.body.delta?.type === 'input_json_delta')
      .map((event) => event.body.delta?.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ command: 'ls' });
    expect(all.at(-2)?.body).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: {
        input_tokens: 12,
        output_tokens: 34,
        cache_read_input_tokens: 5,
        cache_creation_input_tokens: 6,
      },
    });
  });

  it('translates an OpenAI-named finish reason override (length → max_tokens)', async () => {
    server.enqueue({
      kind: 'turn',
      toolCalls: [{ name: 'x', arguments: {} }],
      finishReason: 'length',
    });
    const body = (await (await messages({})).json()) as Record<string, unknown>;
    expect(body.stop_reason).toBe('max_tokens');
  });

  it('answers an error step with { type: "error", error: { type, message } }', async () => {
    server.enqueue(
      { kind: 'error', status: 529 },
      { kind: 'error', status: 400, message: 'prompt is too long: 209840 tokens > 200000 maximum' },
    );
    const overloaded = await messages({});
    expect(overloaded.status).toBe(529);
    expect(await overloaded.json()).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'fake LLM server: scripted 529 error' },
    });
    expect(await (await messages({})).json()).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'prompt is too long: 209840 tokens > 200000 maximum',
      },
    });
  });

  it('sends event: error after the scripted number of events for sse-error', async () => {
    server.enqueue({ kind: 'sse-error', afterEvents: 2, errorType: 'api_error' });
    const all = await events(await messages({ stream: true }));
    expect(all.map((event) => event.name)).toEqual(['message_start', 'ping', 'error']);
    expect(all[2]?.body).toMatchObject({ type: 'error', error: { type: 'api_error' } });
  });

  it('answers a non-stream request scripted with sse-error as an HTTP overloaded error', async () => {
    server.enqueue({ kind: 'sse-error' });
    const response = await messages({});
    expect(response.status).toBe(529);
    expect(await response.json()).toMatchObject({ error: { type: 'overloaded_error' } });
  });
});
