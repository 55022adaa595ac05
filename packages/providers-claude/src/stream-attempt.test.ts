import { Stream } from '@anthropic-ai/sdk/core/streaming';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type RawSseEvent, streamAttempt, TextSinkError } from './stream-attempt.js';

afterEach(() => {
  vi.useRealTimers();
});

const sse = (type: string, body: Record<string, unknown> = {}): RawSseEvent => ({
  event: type,
  data: JSON.stringify({ type, ...body }),
});

const fullTurn: RawSseEvent[] = [
  sse('message_start', { message: { model: 'm', usage: { input_tokens: 1, output_tokens: 0 } } }),
  sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'hi' } }),
  sse('content_block_stop', { index: 0 }),
  sse('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } }),
  sse('message_stop'),
];

function attempt(events: () => AsyncIterable<RawSseEvent>, idleTimeoutMs = 5_000) {
  return streamAttempt({
    open: async () => new Response(''),
    events,
    idleTimeoutMs,
  });
}

/**
 * A streamed response whose bytes the test writes, decoded by the SDK's own SSE reader.
 * `decoded(n)` resolves once `n` events came out of the decoder: their bytes have been read (and
 * seen by the idle watchdog) by then. Aborting the request errors the body, as `fetch` does.
 */
function liveStream() {
  const encoder = new TextEncoder();
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      feed = controller;
    },
  });
  let count = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  return {
    open: async (signal: AbortSignal) => {
      signal.addEventListener('abort', () => feed.error(signal.reason), { once: true });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    },
    events: async function* (response: Response, controller: AbortController) {
      for await (const event of Stream.rawEvents(response, controller)) {
        count += 1;
        for (const waiter of waiters.filter((w) => w.n <= count)) waiter.resolve();
        yield event;
      }
    },
    write(event: RawSseEvent): void {
      feed.enqueue(encoder.encode(`event: ${event.event}\ndata: ${event.data}\n\n`));
    },
    decoded(n: number): Promise<void> {
      return count >= n
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ n, resolve }));
    },
    end: () => feed.close(),
  };
}

const ping: RawSseEvent = { event: 'ping', data: '{"type":"ping"}' };

/**
 * On fake timers, an attempt with a 1 s idle limit whose stream has delivered `message_start`;
 * from here on, only the test moves time.
 */
async function startedAttempt() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const stream = liveStream();
  let done = false;
  const result = streamAttempt({ ...stream, idleTimeoutMs: 1_000 }).finally(() => {
    done = true;
  });
  stream.write(fullTurn[0] as RawSseEvent);
  await stream.decoded(1);
  return { stream, result, settled: () => done };
}

describe('streamAttempt and the idle watchdog (fake timers)', () => {
  it('gives up on a stream that sends no byte for idleTimeoutMs, and not sooner', async () => {
    const { result, settled } = await startedAttempt();
    await vi.advanceTimersByTimeAsync(999);
    expect(settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toEqual({
      ok: false,
      failure: {
        reason: 'stalled',
        detail: 'the response stream sent nothing for 1000 ms',
        spoke: false,
      },
    });
  });

  it('counts pings as activity: no content for three idle limits, never a limit without a byte', async () => {
    const { stream, result, settled } = await startedAttempt();
    for (let i = 0; i < 5; i += 1) {
      await vi.advanceTimersByTimeAsync(600);
      stream.write(ping);
      await stream.decoded(2 + i);
    }
    expect(settled()).toBe(false);
    for (const event of fullTurn.slice(1)) stream.write(event);
    stream.end();
    expect(await result).toMatchObject({ ok: true, turn: { text: 'hi' } });
  });
});

describe('streamAttempt', () => {
  it('reports a stream that ends without message_stop as cut', async () => {
    const result = await attempt(async function* () {
      yield* fullTurn.slice(0, -1);
    });
    expect(result).toMatchObject({ ok: false, failure: { reason: 'cut' } });
  });

  it('reports an event: error as sse-error with its type', async () => {
    const result = await attempt(async function* () {
      yield fullTurn[0] as RawSseEvent;
      yield {
        event: 'error',
        data: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      };
    });
    expect(result).toMatchObject({
      ok: false,
      failure: {
        reason: 'sse-error',
        detail: expect.stringContaining('overloaded_error: Overloaded'),
      },
    });
  });

  it('reports a body that throws mid-read as cut', async () => {
    const result = await attempt(async function* () {
      yield fullTurn[0] as RawSseEvent;
      throw new TypeError('terminated');
    });
    expect(result).toMatchObject({
      ok: false,
      failure: { reason: 'cut', detail: expect.stringContaining('terminated') },
    });
  });

  it('wraps an onTextDelta failure so the provider can rethrow it unchanged', async () => {
    const boom = new Error('sink');
    const call = streamAttempt({
      open: async () => new Response(''),
      events: async function* () {
        yield* fullTurn;
      },
      idleTimeoutMs: 5_000,
      onTextDelta: () => {
        throw boom;
      },
    });
    await expect(call).rejects.toBeInstanceOf(TextSinkError);
    await expect(call).rejects.toMatchObject({ cause: boom });
  });
});
