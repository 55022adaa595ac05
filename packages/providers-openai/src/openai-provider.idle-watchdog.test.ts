import { type LLMRequest, msg } from '@tiny-claw/core';
import { type FakeLlmServer, startFakeLlmServer } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OpenAIProvider, type OpenAIProviderOptions } from './index.js';

// The stream idle watchdog, on fake timers: time passes only when a test moves it, so "silent for
// the idle limit" is exact and never a guess about machine speed. The test knows the client holds
// every byte sent so far either from the text callback (the server's preamble ends in a text
// delta) or from a body it writes itself, whose reader asks for more only once it took the rest.

const IDLE_MS = 1_000;

let server: FakeLlmServer;
let attempts = 0;
beforeEach(async () => {
  server = await startFakeLlmServer();
  attempts = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(async () => {
  vi.useRealTimers();
  await server.close();
});

const countedFetch: typeof fetch = (input, init) => {
  attempts += 1;
  return fetch(input, init);
};

const provider = (options: Partial<OpenAIProviderOptions> = {}) =>
  new OpenAIProvider({
    apiKey: 'sk-test-key',
    baseURL: server.openaiBaseUrl,
    model: 'gpt-test',
    idleTimeoutMs: IDLE_MS,
    fetch: countedFetch,
    ...options,
  });

const request: LLMRequest = { messages: [msg.user('hi')], tools: [], toolChoice: 'auto' };

/** The settled value (or error) of `promise`, and whether it has settled yet. */
function watch<T>(promise: Promise<T>) {
  let done = false;
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  void outcome.then(() => {
    done = true;
  });
  return { outcome, settled: () => done };
}

/** Move fake time in steps shorter than the idle limit until `done()`; each step lets I/O run. */
async function passTimeUntil(done: () => boolean): Promise<void> {
  while (!done()) await vi.advanceTimersByTimeAsync(IDLE_MS / 2);
}

/** An SSE body the test writes; `taken()` resolves once the client has read all of it. */
function heldSse() {
  const encoder = new TextEncoder();
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  let wanting = false;
  let onWant: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        feed = controller;
      },
      // Called only when the reader waits on an empty queue: everything written was taken.
      pull() {
        wanting = true;
        onWant?.();
      },
    },
    { highWaterMark: 0 },
  );
  const fetchImpl: typeof fetch = async (_input, init) => {
    attempts += 1;
    init?.signal?.addEventListener('abort', () => feed.error(init.signal?.reason));
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  return {
    fetch: fetchImpl,
    send(text: string): void {
      wanting = false;
      feed.enqueue(encoder.encode(text));
    },
    taken(): Promise<void> {
      if (wanting) return Promise.resolve();
      return new Promise((resolve) => {
        onWant = resolve;
      });
    },
    end: () => feed.close(),
  };
}

const chunk = (delta: unknown, finish: string | null = null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

describe('the idle watchdog', () => {
  it('abandons a stream silent for the idle limit, not before; having sent text, it is not asked for again', async () => {
    server.enqueue(
      { kind: 'stall', text: 'thinking', afterEvents: 2 },
      { kind: 'turn', text: ' never served' },
    );
    let heard!: () => void;
    const preambleHeard = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const reply = watch(provider().complete(request, { onTextDelta: () => heard() }));
    await preambleHeard;
    await vi.advanceTimersByTimeAsync(IDLE_MS - 1);
    expect(reply.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await passTimeUntil(reply.settled);
    const { error } = (await reply.outcome) as { error: unknown };
    expect(error).toMatchObject({ kind: 'incomplete_stream', isRetryable: true });
    expect((error as Error).message).toMatch(/after 1 attempt \(no data for 1000 ms\)/);
    expect(attempts).toBe(1);
    expect(server.pending()).toBe(1);
  });

  it('ends in incomplete_stream naming the idle limit when every attempt stays silent', async () => {
    server.enqueue({ kind: 'stall' }, { kind: 'stall' });
    const reply = watch(provider().complete(request));
    await server.received(1);
    await passTimeUntil(() => attempts === 2);
    await server.received(2);
    await passTimeUntil(reply.settled);
    const { error } = (await reply.outcome) as { error: unknown };
    expect(error).toMatchObject({ kind: 'incomplete_stream', isRetryable: true });
    expect((error as Error).message).toMatch(/no data for 1000 ms/);
    expect(server.requests).toHaveLength(2);
  });

  it('treats silence after the finish_reason chunk as a finished answer that lacks only usage', async () => {
    const sse = heldSse();
    const reply = watch(provider({ fetch: sse.fetch, streamRetries: 0 }).complete(request));
    sse.send(chunk({ role: 'assistant', content: 'done' }));
    sse.send(chunk({}, 'stop'));
    await sse.taken();
    await passTimeUntil(reply.settled);
    const { value } = (await reply.outcome) as { value: unknown };
    expect(value).toMatchObject({ stopReason: 'stop', message: { content: 'done' } });
    expect(value).not.toHaveProperty('usage');
    expect(attempts).toBe(1);
  });

  it('counts SSE keep-alive comments as life: no data for three limits, never a limit without a byte', async () => {
    const sse = heldSse();
    const reply = watch(provider({ fetch: sse.fetch, streamRetries: 0 }).complete(request));
    sse.send(chunk({ role: 'assistant', content: '' }));
    await sse.taken();
    for (let i = 0; i < 5; i += 1) {
      await vi.advanceTimersByTimeAsync(IDLE_MS * 0.6);
      sse.send(': still thinking\n\n');
      await sse.taken();
    }
    expect(reply.settled()).toBe(false);
    sse.send(chunk({ content: 'thought it through' }, 'stop'));
    sse.send('data: [DONE]\n\n');
    sse.end();
    const { value } = (await reply.outcome) as { value: unknown };
    expect(value).toMatchObject({ message: { content: 'thought it through' } });
    expect(attempts).toBe(1);
  });
});
