import { type LLMRequest, msg, ProviderError } from '@tiny-claw/core';
import { type FakeLlmServer, type FakeStep, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OpenAIProvider, type OpenAIProviderOptions } from './index.js';

// Retries, incomplete streams, timeouts and cancellation. The idle watchdog has its own file.

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(async () => {
  vi.useRealTimers();
  await server.close();
});

const provider = (options: Partial<OpenAIProviderOptions> = {}) =>
  new OpenAIProvider({
    apiKey: 'sk-test-key',
    baseURL: server.openaiBaseUrl,
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

describe('HTTP retries', () => {
  it('waits as long as retry-after asks after a 429, then succeeds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.enqueue(
      { kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '1' } },
      { kind: 'turn', text: 'after the wait' },
    );
    let attempts = 0;
    const reply = provider({
      fetch: (input, init) => {
        attempts += 1;
        return fetch(input, init);
      },
    }).complete(request());
    await server.received(1);
    // However late the wait began, a second of fake time has not passed since it did.
    await vi.advanceTimersByTimeAsync(999);
    expect(attempts).toBe(1);
    // Time stops moving once the retry is under way, so its own timers cannot fire.
    while (attempts < 2) await vi.advanceTimersByTimeAsync(100);
    expect((await reply).message.content).toBe('after the wait');
    expect(server.requests).toHaveLength(2);
  });

  it('three 500s end in a retryable server error after 2 retries', async () => {
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

  it.each([502, 503, 529, 408, 409])('%s is retried too', async (status) => {
    server.enqueue(
      { kind: 'error', status, headers: { 'retry-after-ms': '10' } },
      { kind: 'turn', text: 'recovered' },
    );
    expect((await provider().complete(request())).message.content).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('maxRetries 0 means a single request', async () => {
    server.enqueue({ kind: 'error', status: 503 }, { kind: 'turn' });
    await expect(provider({ maxRetries: 0 }).complete(request())).rejects.toMatchObject({
      kind: 'server',
      status: 503,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('a 500 with x-should-retry: false is not retried', async () => {
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
  it('a stream cut after it sent text returns no tool call, is not asked for again and throws incomplete_stream', async () => {
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
      /^OpenAI request failed: 200 .*incomplete after 1 attempt\b/,
    );
    expect((error as Error).message).toMatch(/no tool call from it was used/);
    // The user saw the text once; a second attempt would have shown it twice.
    expect(server.requests).toHaveLength(1);
    expect(deltas.join('')).toBe('I will delete it');
  });

  it('an error event mid-stream before any text is retried streamRetries times', async () => {
    server.enqueue({ kind: 'sse-error' }, { kind: 'sse-error' });
    const error = await failure(provider({ streamRetries }).complete(request()));
    expect(error).toMatchObject({ kind: 'incomplete_stream' });
    expect((error as Error).message).toMatch(/error mid-stream: .*overloaded_error in stream/);
    expect(server.requests).toHaveLength(streamRetries + 1);
  });
});

describe('stream retries', () => {
  it('a cut stream is retried and only the complete answer’s tool calls are returned', async () => {
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

  it('a cut after the finish chunk but before usage/[DONE] is a complete answer', async () => {
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

  it('an error event mid-stream is retried, then the answer is used', async () => {
    server.enqueue(
      { kind: 'sse-error', errorType: 'server_error' },
      { kind: 'turn', text: 'fine now' },
    );
    expect((await provider().complete(request())).message.content).toBe('fine now');
    expect(server.requests).toHaveLength(2);
  });
});

describe('timeouts and connection errors', () => {
  it('a server that never answers a JSON request times out with kind timeout', async () => {
    server.enqueue({ kind: 'stall' });
    const error = await failure(
      provider({ stream: false, timeoutMs: 200, maxRetries: 0 }).complete(request()),
    );
    expect(error).toMatchObject({ kind: 'timeout', isRetryable: true });
    expect((error as Error).message).toMatch(/^OpenAI request failed: .*within 200 ms/);
  });

  it('a connection reset before any byte is retried', async () => {
    server.enqueue({ kind: 'cut' }, { kind: 'turn', text: 'second try' });
    const response = await provider({ stream: false }).complete(request());
    expect(response.message.content).toBe('second try');
    expect(server.requests).toHaveLength(2);
  });

  it('a closed port is a connection error naming the base URL', async () => {
    const dead = await startFakeLlmServer();
    const baseUrl = dead.openaiBaseUrl;
    await dead.close();
    const error = await failure(provider({ baseURL: baseUrl, maxRetries: 0 }).complete(request()));
    expect(error).toMatchObject({ kind: 'connection', isRetryable: true });
    expect((error as Error).message).toContain(baseUrl);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });
});

describe('cancellation', () => {
  it('aborting cancels an in-flight stream and rethrows the signal reason', async () => {
    server.enqueue({ kind: 'stall', text: 'thinking', afterEvents: 2 });
    const controller = new AbortController();
    const reason = new Error('user pressed Ctrl-C');
    // Aborted from the text callback: the stream is certainly open and mid-answer.
    const error = await failure(
      provider().complete(request(), {
        signal: controller.signal,
        onTextDelta: () => controller.abort(reason),
      }),
    );
    expect(error).toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('aborting cancels an in-flight JSON request (request.signal is used when no option is given)', async () => {
    server.enqueue({ kind: 'stall' });
    const controller = new AbortController();
    const pending = failure(
      provider({ stream: false }).complete(request({ signal: controller.signal })),
    );
    await server.received(1);
    controller.abort();
    const error = await pending;
    expect(controller.signal.aborted).toBe(true);
    expect(error).toBe(controller.signal.reason);
    expect(server.requests).toHaveLength(1);
  });

  it('aborting interrupts the wait before a retry instead of sleeping it out', async () => {
    // Fake time never moves here, so a wait that ignored the abort would never end.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.enqueue(
      { kind: 'error', status: 429, headers: { 'retry-after': '30' } },
      { kind: 'turn', text: 'never served' },
    );
    const controller = new AbortController();
    const pending = failure(provider().complete(request(), { signal: controller.signal }));
    await server.received(1);
    controller.abort('stop');
    expect(await pending).toBe('stop');
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
