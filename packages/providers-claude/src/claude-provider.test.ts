import { type LLMRequest, msg, ProviderError, type ToolDefinition } from '@tiny-claw/core';
import { type FakeLlmServer, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClaudeProvider, type ClaudeProviderOptions } from './index.js';

// A realistic-looking key, so any leak of it (or of a fragment) into an error is caught.
const API_KEY = 'sk-ant-api03-Q7vLm2Xp9RtK4wZs8NbY-zq8keyTAIL9';

const readTool: ToolDefinition = {
  name: 'read',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

let server: FakeLlmServer;
/** Requests the provider's SDK has started, counted before they reach the network. */
let attempts = 0;
beforeEach(async () => {
  server = await startFakeLlmServer();
  attempts = 0;
});
afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  await server.close();
});

const countedFetch: typeof fetch = (input, init) => {
  attempts += 1;
  return fetch(input, init);
};

function provider(options: Partial<ClaudeProviderOptions> = {}): ClaudeProvider {
  return new ClaudeProvider({
    apiKey: API_KEY,
    baseURL: server.anthropicBaseUrl,
    model: 'claude-test',
    maxTokens: 1024,
    maxRetries: 0,
    fetch: countedFetch,
    ...options,
  });
}

/**
 * Fake timers for the watchdog and retry-wait tests: time passes only when a test moves it, so
 * "silent for the idle limit" is exact and never a guess about machine speed.
 */
function fakeTime(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
}

/** Move fake time in steps shorter than any idle limit used here until `done()`; I/O runs between. */
async function passTimeUntil(done: () => boolean): Promise<void> {
  while (!done()) await vi.advanceTimersByTimeAsync(100);
}

function ask(text = 'hi', tools: ToolDefinition[] = [readTool]): LLMRequest {
  return { messages: [msg.system('be brief'), msg.user(text)], tools, toolChoice: 'auto' };
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  const providerError = error as ProviderError;
  expect(providerError.message).toMatch(/^Claude request failed: /);
  expect(providerError.message).not.toContain('\n');
  expectNoKey(providerError.message);
  return providerError;
}

function expectNoKey(text: string): void {
  expect(text).not.toContain(API_KEY);
  for (const fragment of ['Q7vLm2Xp9', 'RtK4wZs8', 'zq8keyTAIL9', 'TAIL9'])
    expect(text).not.toContain(fragment);
}

describe('ClaudeProvider request mapping over the wire', () => {
  it('sends system, merged turns, tool_result blocks in user turns, tools and tool_choice', async () => {
    server.enqueue({ kind: 'turn', text: 'ok' });
    const call = { id: 'toolu_a', name: 'read', arguments: { path: 'a.txt' } };
    await provider().complete({
      messages: [
        msg.system('core prompt'),
        msg.system('AGENTS.md text'),
        msg.user('read a'),
        msg.assistant('', [call]),
        msg.tool(call, 'missing', { isError: true }),
        msg.user('then summarise'),
        msg.assistant(''),
        msg.user('please'),
      ],
      tools: [readTool],
      toolChoice: 'auto',
    });
    const sent = server.requests[0];
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.stream).toBe(true);
    expect(sent?.body).toEqual({
      model: 'claude-test',
      max_tokens: 1024,
      stream: true,
      system: 'core prompt\n\nAGENTS.md text',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'read a' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_a', name: 'read', input: { path: 'a.txt' } }],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_a', content: 'missing', is_error: true },
            { type: 'text', text: 'then summarise' },
            { type: 'text', text: 'please' },
          ],
        },
      ],
      tools: [{ name: 'read', description: 'Read a file', input_schema: readTool.parameters }],
      tool_choice: { type: 'auto' },
    });
    expect(sent?.headers['anthropic-version']).toBeDefined();
  });

  it('sends neither tools nor tool_choice when the request has no tools', async () => {
    server.enqueue({ kind: 'turn', text: 'ok' });
    await provider().complete({ ...ask('think', []), toolChoice: 'none' });
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
  });

  it('uses ANTHROPIC_BASE_URL through the SDK when no baseUrl is given', async () => {
    vi.stubEnv('ANTHROPIC_BASE_URL', server.anthropicBaseUrl);
    server.enqueue({ kind: 'turn', text: 'via env' });
    const response = await provider({ baseURL: undefined }).complete(ask());
    expect(response.message.content).toBe('via env');
    expect(server.requests).toHaveLength(1);
  });
});

describe('ClaudeProvider turns', () => {
  const turn = {
    kind: 'turn' as const,
    text: 'I will read both files.',
    toolCalls: [
      { name: 'read', arguments: { path: 'a.txt' } },
      { id: 'toolu_custom', name: 'read', arguments: '{"path":"b.txt"}' },
    ],
    usage: { input: 120, output: 30, cacheRead: 100, cacheWrite: 20 },
    chunkSize: 4,
  };
  // inputTokens counts every prompt token: Anthropic's input_tokens plus cache reads and writes.
  const expectedUsage = {
    inputTokens: 240,
    outputTokens: 30,
    totalTokens: 270,
    cacheReadTokens: 100,
    cacheWriteTokens: 20,
  };

  it('maps a JSON turn: text, tool calls, usage with cache read/write, stop reason, model', async () => {
    server.enqueue(turn);
    const response = await provider({ stream: false }).complete(ask());
    expect(server.requests[0]?.stream).toBe(false);
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: 'I will read both files.',
        toolCalls: [
          { id: 'toolu_1', name: 'read', arguments: { path: 'a.txt' } },
          { id: 'toolu_custom', name: 'read', arguments: { path: 'b.txt' } },
        ],
      },
      provider: 'claude',
      model: 'claude-test',
      usage: expectedUsage,
      stopReason: 'tool_use',
    });
  });

  it('maps an SSE turn the same way and streams the text deltas in order', async () => {
    server.enqueue(turn);
    const deltas: string[] = [];
    const response = await provider().complete(ask(), {
      onTextDelta: (delta) => deltas.push(delta),
    });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('I will read both files.');
    expect(response.message.content).toBe('I will read both files.');
    expect(response.message.toolCalls).toEqual([
      { id: 'toolu_1', name: 'read', arguments: { path: 'a.txt' } },
      { id: 'toolu_custom', name: 'read', arguments: { path: 'b.txt' } },
    ]);
    expect(response.usage).toEqual(expectedUsage);
    expect(response.stopReason).toBe('tool_use');
    expect(response.model).toBe('claude-test');
  });

  it('returns a text-only turn without toolCalls', async () => {
    server.enqueue({ kind: 'turn', text: 'done', usage: { input: 5, output: 1 } });
    const response = await provider().complete(ask());
    expect(response.message).toEqual({ role: 'assistant', content: 'done' });
    expect(response.stopReason).toBe('end_turn');
  });

  it('keeps a call with undecodable streamed input as {} plus argumentsError', async () => {
    const raws = ['{"path": "a"', 'null', '[]', '"str"', '{"timeout":1e309}'];
    server.enqueue({
      kind: 'turn',
      toolCalls: raws.map((raw) => ({ name: 'read', arguments: raw })),
    });
    const response = await provider().complete(ask());
    const calls = response.message.toolCalls ?? [];
    expect(calls).toHaveLength(raws.length);
    for (const call of calls) {
      expect(call.arguments).toEqual({});
      expect(call.argumentsError).toEqual(expect.any(String));
    }
    expect(calls[0]?.argumentsError).toMatch(/invalid JSON/);
    expect(calls[1]?.argumentsError).toMatch(/got null/);
    expect(calls[2]?.argumentsError).toMatch(/got an array/);
    expect(calls[4]?.argumentsError).toMatch(/Infinity/);
  });

  it('keeps a call whose JSON input is not an object as {} plus argumentsError', async () => {
    const raws = ['null', '[]', '"str"', '{"path": "a"'];
    server.enqueue({
      kind: 'turn',
      toolCalls: raws.map((raw) => ({ name: 'read', arguments: raw })),
    });
    const calls = (await provider({ stream: false }).complete(ask())).message.toolCalls ?? [];
    expect(calls.map((call) => call.arguments)).toEqual([{}, {}, {}, {}]);
    expect(calls.map((call) => Boolean(call.argumentsError))).toEqual([true, true, true, true]);
  });

  it.each([true, false])(
    'marks a tool call cut by max_tokens as invalid (stream=%s)',
    async (stream) => {
      server.enqueue({
        kind: 'turn',
        text: 'writing',
        toolCalls: [
          { name: 'read', arguments: { path: 'a' } },
          { name: 'write', arguments: { path: 'b', content: 'partial' } },
        ],
        finishReason: 'max_tokens',
      });
      const response = await provider({ stream }).complete(ask());
      expect(response.stopReason).toBe('max_tokens');
      const [first, last] = response.message.toolCalls ?? [];
      expect(first).toEqual({ id: expect.any(String), name: 'read', arguments: { path: 'a' } });
      expect(last).toMatchObject({ name: 'write', arguments: {} });
      expect(last?.argumentsError).toMatch(/max_tokens/);
    },
  );
});

describe('ClaudeProvider HTTP errors and retries', () => {
  it('waits as long as retry-after asks after a 429, then succeeds', async () => {
    fakeTime();
    server.enqueue(
      { kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '1' } },
      { kind: 'turn', text: 'after the wait' },
    );
    const reply = provider({ maxRetries: 2 }).complete(ask());
    await server.received(1);
    // However late the wait began, a second of fake time has not passed since it did.
    await vi.advanceTimersByTimeAsync(999);
    expect(attempts).toBe(1);
    // Time stops moving once the retry is under way, so its own timers cannot fire.
    await passTimeUntil(() => attempts === 2);
    expect((await reply).message.content).toBe('after the wait');
    expect(server.requests).toHaveLength(2);
  });

  it('does not sleep for an hour on retry-after: 3600', async () => {
    server.enqueue(
      { kind: 'error', status: 429, headers: { 'retry-after': '3600' } },
      { kind: 'turn', text: 'soon' },
    );
    // The hint is dropped, so the SDK waits its own backoff (under a second for a first retry);
    // honouring it would outlast the test's timeout, which is the bound here.
    await expect(provider({ maxRetries: 1 }).complete(ask())).resolves.toMatchObject({
      message: { content: 'soon' },
    });
    expect(server.requests).toHaveLength(2);
  });

  it.each([500, 529])('gives up after maxRetries on %i and reports kind server', async (status) => {
    server.enqueue({ kind: 'error', status }, { kind: 'error', status }, { kind: 'error', status });
    const error = await failure(provider({ maxRetries: 2 }).complete(ask()));
    expect(error).toMatchObject({ kind: 'server', status, isRetryable: true });
    expect(error.message).toContain(String(status));
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry when the server says x-should-retry: false', async () => {
    server.enqueue({ kind: 'error', status: 500, headers: { 'x-should-retry': 'false' } });
    await failure(provider({ maxRetries: 2 }).complete(ask()));
    expect(server.requests).toHaveLength(1);
  });

  it.each([401, 403])(
    'reports %i as an auth error naming ANTHROPIC_API_KEY, never the key',
    async (status) => {
      server.enqueue({
        kind: 'error',
        status,
        message: `invalid x-api-key: ${API_KEY} (ends in ...zq8keyTAIL9)`,
      });
      const error = await failure(provider({ maxRetries: 2 }).complete(ask()));
      expect(error).toMatchObject({ kind: 'auth', status, isRetryable: false });
      expect(error.message).toContain('ANTHROPIC_API_KEY');
      expect(error.message).toContain(String(status));
      expectNoKey(String((error.cause as Error | undefined)?.message ?? ''));
      expect(server.requests).toHaveLength(1);
    },
  );

  it('reports 404 as not_found naming the model and the base URL', async () => {
    server.enqueue({ kind: 'error', status: 404, message: 'model: claude-test' });
    const error = await failure(provider().complete(ask()));
    expect(error).toMatchObject({ kind: 'not_found', status: 404, isRetryable: false });
    expect(error.message).toContain('"claude-test"');
    expect(error.message).toContain(server.anthropicBaseUrl);
  });

  it('reports "prompt is too long" as context_length, not retried', async () => {
    server.enqueue({
      kind: 'error',
      status: 400,
      message: 'prompt is too long: 209840 tokens > 200000 maximum',
    });
    const error = await failure(provider({ maxRetries: 2 }).complete(ask()));
    expect(error).toMatchObject({ kind: 'context_length', status: 400, isRetryable: false });
    expect(error.message).toContain('209840 tokens > 200000 maximum');
    expect(server.requests).toHaveLength(1);
  });

  it('reports another 400 as bad_request with the upstream reason', async () => {
    server.enqueue({
      kind: 'error',
      status: 400,
      message: 'tools.0.name: String should match pattern',
    });
    const error = await failure(provider().complete(ask()));
    expect(error).toMatchObject({ kind: 'bad_request', status: 400, isRetryable: false });
    expect(error.message).toContain('invalid_request_error: tools.0.name');
  });

  it('reports exhausted 429s as rate_limit', async () => {
    server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '0' } });
    const error = await failure(provider().complete(ask()));
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, isRetryable: true });
  });

  it('reports a 200 that is not JSON as invalid_response', async () => {
    server.enqueue({ kind: 'raw', status: 200, body: '<html>gateway says hi</html>' });
    const error = await failure(provider({ stream: false }).complete(ask()));
    expect(error).toMatchObject({ kind: 'invalid_response', isRetryable: false });
  });

  it('treats an undecodable stream event as an incomplete stream', async () => {
    const garbage = 'event: message_start\ndata: {"type":"message_start","mess\n\n';
    const sse = { 'content-type': 'text/event-stream' };
    server.enqueue(
      { kind: 'raw', status: 200, headers: sse, body: garbage },
      { kind: 'raw', status: 200, headers: sse, body: garbage },
    );
    const error = await failure(provider().complete(ask()));
    expect(error).toMatchObject({ kind: 'incomplete_stream' });
    expect(error.message).toContain('undecodable');
  });

  it('reports an unreachable server as a connection error', async () => {
    const url = server.anthropicBaseUrl;
    await server.close();
    const error = await failure(provider({ baseURL: url }).complete(ask()));
    expect(error).toMatchObject({ kind: 'connection', isRetryable: true });
    expect(error.message).toContain(url);
  });

  it('reports a request with no answer within timeoutMs as a timeout', async () => {
    // The server holds the request until the test ends: only the client's timeout can end it.
    server.enqueue({ kind: 'stall' });
    const error = await failure(provider({ stream: false, timeoutMs: 300 }).complete(ask()));
    expect(error).toMatchObject({ kind: 'timeout', isRetryable: true });
  });
});

describe('ClaudeProvider incomplete streams', () => {
  const toolTurn = {
    kind: 'turn' as const,
    text: 'reading',
    toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }],
  };

  it('never returns tool calls from a stream cut before message_stop', async () => {
    server.enqueue(
      {
        kind: 'cut',
        text: 'reading',
        toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf x' } }],
      },
      {
        kind: 'cut',
        text: 'reading',
        toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf x' } }],
      },
    );
    const error = await failure(provider({ streamRetries: 1 }).complete(ask()));
    expect(error).toMatchObject({ kind: 'incomplete_stream', isRetryable: true });
    expect(error.message).toContain('message_stop');
    expect(error.message).toContain('2 attempts');
    expect(server.requests).toHaveLength(2);
  });

  it('retries a cut stream and returns only the complete attempt`s calls', async () => {
    server.enqueue(
      {
        kind: 'cut',
        text: 'first try',
        toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf x' } }],
      },
      toolTurn,
    );
    const response = await provider().complete(ask());
    expect(response.message.toolCalls).toEqual([
      { id: expect.any(String), name: 'read', arguments: { path: 'a.txt' } },
    ]);
    expect(response.message.content).toBe('reading');
  });

  it('treats an SSE error event mid-stream as incomplete and retries it', async () => {
    server.enqueue({ kind: 'sse-error', errorType: 'overloaded_error' }, toolTurn);
    const response = await provider().complete(ask());
    expect(response.message.toolCalls).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('fails with incomplete_stream naming overloaded_error when every attempt errors', async () => {
    server.enqueue({ kind: 'sse-error' }, { kind: 'sse-error' });
    const error = await failure(provider().complete(ask()));
    expect(error).toMatchObject({ kind: 'incomplete_stream', isRetryable: true });
    expect(error.message).toContain('overloaded_error');
  });

  it('abandons a stream silent for idleTimeoutMs, not before; having sent text, it is not asked for again', async () => {
    fakeTime();
    // The preamble (message_start, ping, block start, delta) ends in a text delta: once it is
    // heard, the client holds every byte sent.
    server.enqueue({ kind: 'stall', text: 'wait', afterEvents: 4 }, { kind: 'turn', text: 'back' });
    let heard!: () => void;
    const preambleHeard = new Promise<void>((resolve) => {
      heard = resolve;
    });
    let settled = false;
    const reply = failure(
      provider({ idleTimeoutMs: 1_000 }).complete(ask(), { onTextDelta: () => heard() }),
    ).finally(() => {
      settled = true;
    });
    await preambleHeard;
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await passTimeUntil(() => settled);
    const error = await reply;
    expect(error).toMatchObject({ kind: 'incomplete_stream' });
    expect(error.message).toContain('nothing for 1000 ms');
    expect(error.message).toContain('1 attempt');
    expect(attempts).toBe(1);
    expect(server.pending()).toBe(1);
  });

  it('fails with incomplete_stream naming the idle limit when every attempt stays silent', async () => {
    fakeTime();
    server.enqueue({ kind: 'stall' }, { kind: 'stall' });
    let settled = false;
    const reply = failure(
      provider({ idleTimeoutMs: 1_000, streamRetries: 1 }).complete(ask()),
    ).finally(() => {
      settled = true;
    });
    await server.received(1);
    await passTimeUntil(() => attempts === 2);
    await server.received(2);
    await passTimeUntil(() => settled);
    const error = await reply;
    expect(error).toMatchObject({ kind: 'incomplete_stream' });
    expect(error.message).toContain('nothing for 1000 ms');
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a stream when streamRetries is 0', async () => {
    server.enqueue({ kind: 'sse-error' }, { kind: 'turn', text: 'unused' });
    await failure(provider({ streamRetries: 0 }).complete(ask()));
    expect(server.requests).toHaveLength(1);
    expect(server.pending()).toBe(1);
  });
});

describe('ClaudeProvider cancellation', () => {
  it('throws the abort, not a ProviderError, when the signal fires mid-stream', async () => {
    server.enqueue({ kind: 'stall', text: 'reading', afterEvents: 4 });
    const controller = new AbortController();
    // Aborted from the text callback: the stream is certainly open and mid-answer.
    const call = provider().complete(ask(), {
      signal: controller.signal,
      onTextDelta: () => controller.abort(),
    });
    const error = await call.catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(ProviderError);
    expect(error).toBe(controller.signal.reason);
    expect((error as Error).name).toBe('AbortError');
  });

  it('honours request.signal while waiting for a retry', async () => {
    // Fake time never moves here, so a wait that ignored the abort would never end.
    fakeTime();
    server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '5' } });
    const controller = new AbortController();
    const reason = new Error('user pressed Ctrl-C');
    const call = provider({ maxRetries: 2 }).complete({ ...ask(), signal: controller.signal });
    await server.received(1);
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(provider().complete(ask(), { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('lets an error thrown by onTextDelta through unchanged', async () => {
    server.enqueue({ kind: 'turn', text: 'hello there' });
    const sinkFailure = new Error('terminal closed');
    const call = provider().complete(ask(), {
      onTextDelta: () => {
        throw sinkFailure;
      },
    });
    await expect(call).rejects.toBe(sinkFailure);
    expect(server.requests).toHaveLength(1);
  });
});

describe('ClaudeProvider options', () => {
  it('refuses a missing key with a message naming ANTHROPIC_API_KEY', () => {
    expect(() => provider({ apiKey: '' })).toThrow(/ANTHROPIC_API_KEY/);
  });

  it('refuses a non-positive maxTokens', () => {
    expect(() => provider({ maxTokens: 0 })).toThrow(/maxTokens = 0: expected an integer ≥ 1/);
  });

  it('exposes name and model', () => {
    expect(provider()).toMatchObject({ name: 'claude', model: 'claude-test' });
  });
});
