import { type LLMRequest, msg, ProviderError } from '@tiny-claw/core';
import { type FakeLlmServer, type FakeStep, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIProvider, type OpenAIProviderOptions } from './index.js';

// Retries, incomplete streams, the idle watchdog and cancellation (reliability.md §6.3 P1–P9).

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

const provider = (options: Partial<OpenAIProviderOptions> = {}) =>
  new OpenAIProvider({
    apiKey: 'sk-test-key',
    baseUrl: server.openaiBaseUrl,
    model: 'gpt-test',
    ...options,
  });

const request = (extra: Partial<LLMRequest> = {}): LLMRequest => ({
  messages: [msg.user('hi')],
  tools: [{ name: 'bash', description: 'Run a command', parameters: { type: 'object' } }],
  toolChoice: 'auto',
  ...extra,
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

/** Resolves once the server has received `count` requests. */
async function requestsReceived(count: number): Promise<void> {
  while (server.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('HTTP retries', () => {
  it('P1: waits for retry-after: 1 after a 429, then succeeds', async () => {
    server.enqueue(
      { kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '1' } },
      { kind: 'turn', text: 'after the wait' },
    );
    const started = Date.now();
    const response = await provider().complete(request());
    expect(response.message.content).toBe('after the wait');
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('P3: three 500s end in a retryable server error after 2 retries', async () => {
    const fail = {
      kind: 'error',
      status: 500,
      message: 'boom',
      headers: { 'retry-after-ms': '10' },
    } as const;
    server.enqueue(fail, fail, fail, { kind: 'turn', text: 'never served' });
    const error = await failure(provider().complete(request()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'server', status: 500, isRetryable: true });
    expect((error as Error).message).toBe(
      'OpenAI request failed: 500 server error (2 retries): boom',
    );
    expect(server.requests).toHaveLength(3);
    expect(server.pending()).toBe(1);
  });

  it.each([502, 503, 529, 408, 409])('P3: %s is retried too', async (status) => {
    server.enqueue(
      { kind: 'error', status, headers: { 'retry-after-ms': '10' } },
      { kind: 'turn', text: 'recovered' },
    );
    expect((await provider().complete(request())).message.content).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('P3: maxRetries 0 means a single request', async () => {
    server.enqueue({ kind: 'error', status: 503 }, { kind: 'turn' });
    await expect(provider({ maxRetries: 0 }).complete(request())).rejects.toMatchObject({
      kind: 'server',
      status: 503,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('P4: a 500 with x-should-retry: false is not retried', async () => {
    server.enqueue(
      { kind: 'error', status: 500, headers: { 'x-should-retry': 'false' } },
      { kind: 'turn', text: 'never served' },
    );
    await expect(provider().complete(request())).rejects.toMatchObject({
      kind: 'server',
      status: 500,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('a 429 that never clears ends in a retryable rate_limit error', async () => {
    const limited = { kind: 'error', status: 429, headers: { 'retry-after-ms': '10' } } as const;
    server.enqueue(limited, limited, limited);
    await expect(provider().complete(request())).rejects.toMatchObject({
      kind: 'rate_limit',
      status: 429,
      isRetryable: true,
    });
    expect(server.requests).toHaveLength(3);
  });
});

describe.each([
  ['streamRetries 0', 0],
  ['streamRetries 1', 1],
])('an incomplete stream with %s', (_label, streamRetries) => {
  it('P7: a stream cut before finish_reason returns no tool call and throws incomplete_stream', async () => {
    const cut: FakeStep = {
      kind: 'cut',
      text: 'I will delete it',
      toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf build' } }],
    };
    server.enqueue(cut, cut);
    const deltas: string[] = [];
    const error = await failure(
      provider({ streamRetries }).complete(request(), { onTextDelta: (d) => deltas.push(d) }),
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'incomplete_stream', isRetryable: true });
    expect((error as Error).message).toMatch(
      new RegExp(`^OpenAI request failed: 200 .*incomplete after ${streamRetries + 1} attempt`),
    );
    expect((error as Error).message).toMatch(/no tool call from it was used/);
    expect(server.requests).toHaveLength(streamRetries + 1);
    // The text did stream (the user saw it), but nothing executable came back.
    expect(deltas.join('')).toContain('I will delete it');
  });

  it('P8: an error event mid-stream is treated the same way', async () => {
    server.enqueue({ kind: 'sse-error' }, { kind: 'sse-error' });
    const error = await failure(provider({ streamRetries }).complete(request()));
    expect(error).toMatchObject({ kind: 'incomplete_stream' });
    expect((error as Error).message).toMatch(/error mid-stream: .*overloaded_error in stream/);
    expect(server.requests).toHaveLength(streamRetries + 1);
  });
});

describe('stream retries', () => {
  it('P7: a cut stream is retried and only the complete answer’s tool calls are returned', async () => {
    server.enqueue(
      { kind: 'cut', toolCalls: [{ id: 'bad', name: 'bash', arguments: { command: 'rm -rf /' } }] },
      { kind: 'turn', toolCalls: [{ id: 'good', name: 'bash', arguments: { command: 'ls' } }] },
    );
    const response = await provider().complete(request());
    expect(response.message.toolCalls).toEqual([
      { id: 'good', name: 'bash', arguments: { command: 'ls' } },
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it('P7: a cut after the finish chunk but before usage/[DONE] is a complete answer', async () => {
    server.enqueue({
      kind: 'cut',
      toolCalls: [{ id: 'done', name: 'bash', arguments: { command: 'ls' } }],
      // Every event but the usage chunk and [DONE]: the finish_reason chunk did arrive.
      afterEvents: 5,
    });
    const response = await provider({ streamRetries: 0 }).complete(request());
    expect(response.message.toolCalls).toEqual([
      { id: 'done', name: 'bash', arguments: { command: 'ls' } },
    ]);
    expect(response.usage).toBeUndefined();
  });

  it('P9: silence after the finish_reason chunk costs only the usage, not a retry', async () => {
    // An empty turn's events are: role, finish, usage, [DONE]; stop after the finish chunk.
    server.enqueue({ kind: 'stall', afterEvents: 2 });
    const response = await provider({ idleTimeoutMs: 150, streamRetries: 0 }).complete(request());
    expect(response).toMatchObject({ stopReason: 'stop', message: { content: '' } });
    expect(server.requests).toHaveLength(1);
  });

  it('P8: an error event mid-stream is retried, then the answer is used', async () => {
    server.enqueue(
      { kind: 'sse-error', errorType: 'server_error' },
      { kind: 'turn', text: 'fine now' },
    );
    expect((await provider().complete(request())).message.content).toBe('fine now');
    expect(server.requests).toHaveLength(2);
  });

  it('P9: a silent stream is aborted by the idle watchdog and retried', async () => {
    server.enqueue({ kind: 'stall', afterEvents: 1 }, { kind: 'turn', text: 'awake' });
    const started = Date.now();
    const response = await provider({ idleTimeoutMs: 200 }).complete(request());
    expect(response.message.content).toBe('awake');
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('P9: a stream that stays silent ends in incomplete_stream naming the idle limit', async () => {
    const stall = { kind: 'stall' } as const;
    server.enqueue(stall, stall);
    const error = await failure(provider({ idleTimeoutMs: 150 }).complete(request()));
    expect(error).toMatchObject({ kind: 'incomplete_stream' });
    expect((error as Error).message).toMatch(/no data for 150 ms/);
    expect(server.requests).toHaveLength(2);
  });
});

describe('timeouts and connection errors', () => {
  it('P6: a server that never answers a JSON request times out with kind timeout', async () => {
    server.enqueue({ kind: 'stall' });
    const error = await failure(
      provider({ stream: false, timeoutMs: 200, maxRetries: 0 }).complete(request()),
    );
    expect(error).toMatchObject({ kind: 'timeout', isRetryable: true });
    expect((error as Error).message).toMatch(/^OpenAI request failed: .*within 200 ms/);
  });

  it('P6: a connection reset before any byte is retried', async () => {
    server.enqueue({ kind: 'cut' }, { kind: 'turn', text: 'second try' });
    const response = await provider({ stream: false }).complete(request());
    expect(response.message.content).toBe('second try');
    expect(server.requests).toHaveLength(2);
  });

  it('a closed port is a connection error naming the base URL', async () => {
    const dead = await startFakeLlmServer();
    const baseUrl = dead.openaiBaseUrl;
    await dead.close();
    const error = await failure(provider({ baseUrl, maxRetries: 0 }).complete(request()));
    expect(error).toMatchObject({ kind: 'connection', isRetryable: true });
    expect((error as Error).message).toContain(baseUrl);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });
});

describe('cancellation', () => {
  it('aborting cancels an in-flight stream and rethrows the signal reason', async () => {
    server.enqueue({ kind: 'stall', afterEvents: 1 });
    const controller = new AbortController();
    const reason = new Error('user pressed Ctrl-C');
    const pending = failure(provider().complete(request(), { signal: controller.signal }));
    await requestsReceived(1);
    const started = Date.now();
    controller.abort(reason);
    expect(await pending).toBe(reason);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(1);
  });

  it('aborting cancels an in-flight JSON request (request.signal is used when no option is given)', async () => {
    server.enqueue({ kind: 'stall' });
    const controller = new AbortController();
    const pending = failure(
      provider({ stream: false }).complete(request({ signal: controller.signal })),
    );
    await requestsReceived(1);
    controller.abort();
    const error = await pending;
    expect(controller.signal.aborted).toBe(true);
    expect(error).toBe(controller.signal.reason);
    expect(server.requests).toHaveLength(1);
  });

  it('aborting interrupts the wait before a retry instead of sleeping it out', async () => {
    server.enqueue(
      { kind: 'error', status: 429, headers: { 'retry-after': '30' } },
      { kind: 'turn', text: 'never served' },
    );
    const controller = new AbortController();
    const pending = failure(provider().complete(request(), { signal: controller.signal }));
    await requestsReceived(1);
    const started = Date.now();
    controller.abort('stop');
    expect(await pending).toBe('stop');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(1);
  });

  it('an already-aborted signal sends nothing', async () => {
    const error = await failure(
      provider().complete(request(), { signal: AbortSignal.abort('early') }),
    );
    expect(error).toBe('early');
    expect(server.requests).toHaveLength(0);
  });
});
