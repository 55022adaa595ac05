import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolResults } from './request-content.js';
import { type FakeLlmServer, NO_SCRIPTED_RESPONSE, startFakeLlmServer } from './server.js';
import { parseSse } from './sse.js';

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

const OPENAI = '/v1/chat/completions';
const ANTHROPIC = '/v1/messages';

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Read a streamed body chunk by chunk so a test can see what arrived before the body failed. */
async function readUntilEnd(response: Response): Promise<{ text: string; error?: unknown }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { text };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

/** A promise the test resolves when it chooses. */
function openable(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** `promise`, and whether it has settled yet. */
function settles<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  return { promise: tracked, settled: () => done };
}

/** Let pending I/O run once, so a server that wrongly answered gets the chance to show it. */
function turnOfTheEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('fake LLM server', () => {
  it('listens on 127.0.0.1 and derives both base URLs from its url', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.openaiBaseUrl).toBe(`${server.url}/v1`);
    expect(server.anthropicBaseUrl).toBe(server.url);
  });

  it('serves steps in order, one per request, whichever API asks', async () => {
    server.enqueue({ kind: 'turn', text: 'one' }, { kind: 'turn', text: 'two' });
    expect(server.pending()).toBe(2);
    const first = (await (await post(ANTHROPIC, { model: 'm' })).json()) as {
      content: Array<{ text: string }>;
    };
    expect(server.pending()).toBe(1);
    const second = (await (await post(OPENAI, { model: 'm' })).json()) as {
      choices: Array<{ message: { content: string } }>;
    };
    expect(first.content[0]?.text).toBe('one');
    expect(second.choices[0]?.message.content).toBe('two');
    expect(server.pending()).toBe(0);
    expect(server.requests.map((r) => r.api)).toEqual(['anthropic', 'openai']);
  });

  it('reply: answers with a turn worked out from the request, as JSON or as a stream', async () => {
    const echo = {
      kind: 'reply' as const,
      reply: (r: Parameters<typeof toolResults>[0]) => ({
        text: `saw ${toolResults(r).join('|') || 'nothing'}`,
      }),
    };
    server.enqueue(echo, echo);
    const openai = (await (
      await post(OPENAI, {
        model: 'm',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'tool', tool_call_id: 'a', content: 'first' },
          { role: 'tool', tool_call_id: 'b', content: [{ type: 'text', text: 'second' }] },
        ],
      })
    ).json()) as { choices: Array<{ message: { content: string } }> };
    expect(openai.choices[0]?.message.content).toBe('saw first|second');
    const streamed = await (
      await post(ANTHROPIC, {
        model: 'm',
        stream: true,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'a', content: 'third' },
              {
                type: 'tool_result',
                tool_use_id: 'b',
                content: [{ type: 'text', text: 'fourth' }],
              },
            ],
          },
        ],
      })
    ).text();
    const deltas = parseSse(streamed)
      .map((event) => JSON.parse(event.data) as { delta?: { text?: string } })
      .map((data) => data.delta?.text ?? '')
      .join('');
    expect(deltas).toBe('saw third|fourth');
  });

  it('reply: a reply that throws answers 500 instead of hanging the test', async () => {
    server.enqueue({
      kind: 'reply',
      reply: () => {
        throw new Error('no tool result to repeat');
      },
    });
    const response = await post(OPENAI, { model: 'm' });
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('no tool result to repeat');
  });

  it('records method, path, lower-cased headers, parsed body and the stream flag', async () => {
    server.enqueue({ kind: 'turn' }, { kind: 'turn' });
    await post(OPENAI, { model: 'm', stream: true }, { 'X-Custom-Header': 'Yes' }).then((r) =>
      r.text(),
    );
    await post(ANTHROPIC, { model: 'm', stream: false });
    const [first, second] = server.requests;
    expect(first).toMatchObject({
      api: 'openai',
      method: 'POST',
      path: OPENAI,
      body: { model: 'm', stream: true },
      stream: true,
    });
    expect(first?.headers['x-custom-header']).toBe('Yes');
    expect(first?.headers['content-type']).toBe('application/json');
    expect(second?.stream).toBe(false);
  });

  it('records an unparsable body as its raw text instead of crashing', async () => {
    server.enqueue({ kind: 'turn', text: 'still answered' });
    const response = await post(OPENAI, '{not json');
    expect(response.status).toBe(200);
    expect(server.requests[0]?.body).toBe('{not json');
    expect(server.requests[0]?.stream).toBe(false);
  });

  it('answers an API-shaped 500 that says no scripted response is left, without retry', async () => {
    const openai = await post(OPENAI, {});
    expect(openai.status).toBe(500);
    expect(openai.headers.get('x-should-retry')).toBe('false');
    const openaiBody = (await openai.json()) as { error: { message: string; type: string } };
    expect(openaiBody.error.message).toContain(NO_SCRIPTED_RESPONSE);
    expect(openaiBody.error.type).toBe('server_error');

    const anthropic = await post(ANTHROPIC, {});
    const anthropicBody = (await anthropic.json()) as {
      type: string;
      error: { type: string; message: string };
    };
    expect(anthropicBody.type).toBe('error');
    expect(anthropicBody.error).toMatchObject({ type: 'api_error' });
    expect(anthropicBody.error.message).toContain('no scripted response left');
  });

  it('answers 404 for unknown paths and methods without consuming a step', async () => {
    server.enqueue({ kind: 'turn' });
    expect((await post('/v1/completions', {})).status).toBe(404);
    expect((await fetch(`${server.url}${OPENAI}`)).status).toBe(404);
    const anthropicShaped = await post('/v1/nope', {}, { 'anthropic-version': '2023-06-01' });
    expect(await anthropicShaped.json()).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error' },
    });
    expect(server.pending()).toBe(1);
    expect(server.requests).toHaveLength(3);
  });

  it('numbers default tool-call ids across the whole server and keeps explicit ids', async () => {
    server.enqueue(
      { kind: 'turn', toolCalls: [{ name: 'a', arguments: {} }] },
      {
        kind: 'turn',
        toolCalls: [
          { id: 'given', name: 'b', arguments: {} },
          { name: 'c', arguments: {} },
        ],
      },
    );
    const first = (await (await post(ANTHROPIC, {})).json()) as { content: Array<{ id: string }> };
    const second = (await (await post(OPENAI, {})).json()) as {
      choices: Array<{ message: { tool_calls: Array<{ id: string }> } }>;
    };
    expect(first.content.map((block) => block.id)).toEqual(['toolu_1']);
    expect(second.choices[0]?.message.tool_calls.map((call) => call.id)).toEqual([
      'given',
      'call_3',
    ]);
  });

  it('uses the scripted model, else the requested model, else fake-model', async () => {
    server.enqueue({ kind: 'turn', model: 'scripted' }, { kind: 'turn' }, { kind: 'turn' });
    const models = [];
    for (const body of [{ model: 'asked' }, { model: 'asked' }, {}]) {
      models.push(((await (await post(OPENAI, body)).json()) as { model: string }).model);
    }
    expect(models).toEqual(['scripted', 'asked', 'fake-model']);
  });

  it('serves a raw step verbatim with application/json as the default content type', async () => {
    server.enqueue(
      { kind: 'raw', status: 200, body: '{"weird":true' },
      { kind: 'raw', status: 503, headers: { 'Content-Type': 'text/plain' }, body: 'down' },
    );
    const first = await post(OPENAI, {});
    expect(first.headers.get('content-type')).toBe('application/json');
    expect(await first.text()).toBe('{"weird":true');
    const second = await post(ANTHROPIC, {});
    expect(second.status).toBe(503);
    expect(second.headers.get('content-type')).toBe('text/plain');
    expect(await second.text()).toBe('down');
  });

  it('cut: streams every event before the finish event, then drops the connection', async () => {
    server.enqueue({ kind: 'cut', text: 'partial', toolCalls: [{ name: 'bash', arguments: {} }] });
    const response = await post(ANTHROPIC, { stream: true });
    expect(response.status).toBe(200);
    const { text, error } = await readUntilEnd(response);
    expect(error).toBeDefined();
    const names = parseSse(text).map((event) => event.event);
    expect(names.at(-1)).toBe('content_block_stop');
    expect(names).not.toContain('message_delta');
    expect(names).not.toContain('message_stop');
  });

  it('cut: afterEvents limits the events and never reaches the terminal [DONE]', async () => {
    server.enqueue(
      { kind: 'cut', text: 'abcdefghijklmnop', afterEvents: 3 },
      { kind: 'cut', text: 'x', afterEvents: 999 },
    );
    const first = await readUntilEnd(await post(OPENAI, { stream: true }));
    expect(first.error).toBeDefined();
    expect(parseSse(first.text)).toHaveLength(3);
    const second = await readUntilEnd(await post(OPENAI, { stream: true }));
    expect(second.error).toBeDefined();
    const data = parseSse(second.text).map((event) => event.data);
    expect(data).not.toContain('[DONE]');
    expect(data.length).toBeGreaterThan(0);
  });

  it('cut: a non-stream request has its socket destroyed before any response', async () => {
    server.enqueue({ kind: 'cut' });
    await expect(post(OPENAI, {})).rejects.toThrow();
    expect(server.requests).toHaveLength(1);
  });

  it('stall: a stream request gets headers and the preamble, then silence until released, then a dropped socket', async () => {
    const gate = openable();
    server.enqueue({ kind: 'stall', afterEvents: 1, until: gate.opened });
    const response = await post(ANTHROPIC, { stream: true });
    expect(response.status).toBe(200);
    const reading = settles(readUntilEnd(response));
    await server.received(1);
    await turnOfTheEventLoop();
    expect(reading.settled()).toBe(false);
    gate.open();
    const { text, error } = await reading.promise;
    expect(error).toBeDefined();
    expect(parseSse(text).map((event) => event.event)).toEqual(['message_start']);
  });

  it('stall: a preamble with text ends in that text, so a client can tell it has all of it', async () => {
    const gate = openable();
    server.enqueue({ kind: 'stall', text: 'thinking', afterEvents: 2, until: gate.opened });
    const reading = readUntilEnd(await post(OPENAI, { stream: true }));
    gate.open();
    const events = parseSse((await reading).text);
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[1]?.data ?? '{}')).toMatchObject({
      choices: [{ delta: { content: 'thinking' } }],
    });
  });

  it('stall: a non-stream request gets no headers until released', async () => {
    const gate = openable();
    server.enqueue({ kind: 'stall', until: gate.opened });
    const answer = settles(
      post(OPENAI, {}).then(
        () => 'answered',
        () => 'dropped',
      ),
    );
    await server.received(1);
    await turnOfTheEventLoop();
    expect(answer.settled()).toBe(false);
    gate.open();
    expect(await answer.promise).toBe('dropped');
  });

  it('received(n) resolves once n requests were answered and rejects if the server closes first', async () => {
    server.enqueue({ kind: 'turn' });
    const first = server.received(1);
    const second = server.received(2);
    await post(OPENAI, {});
    await expect(first).resolves.toBeUndefined();
    await expect(server.received(1)).resolves.toBeUndefined();
    await server.close();
    await expect(second).rejects.toThrow(/closed after 1 of the 2 requests/);
  });

  it('close() ends stalled and keep-alive connections', async () => {
    server.enqueue({ kind: 'stall' });
    const pending = new Promise<string>((resolve) => {
      const req = request(`${server.url}${OPENAI}`, { method: 'POST', agent: false }, (res) =>
        resolve(`status ${res.statusCode}`),
      );
      req.on('error', (error) => resolve(`error ${error.message}`));
      req.end('{}');
    });
    await server.received(1);
    // A held connection would keep close() waiting; the test's timeout is the bound.
    await server.close();
    expect(await pending).toMatch(/^error/);
    await server.close();
  });
});
