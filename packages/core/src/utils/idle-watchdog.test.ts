import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleWatchdog, withActivity, withBodyActivity } from './idle-watchdog.js';

const encoder = new TextEncoder();

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A body the test feeds chunk by chunk. */
function heldBody() {
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      feed = controller;
    },
  });
  return {
    body,
    send: (text: string) => feed.enqueue(encoder.encode(text)),
    end: () => feed.close(),
  };
}

describe('IdleWatchdog', () => {
  it('fires once the idle limit passes in silence, naming the limit', async () => {
    const watchdog = new IdleWatchdog(100);
    await vi.advanceTimersByTimeAsync(99);
    expect(watchdog.fired).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(watchdog.fired).toBe(true);
    expect(watchdog.signal.aborted).toBe(true);
    expect(watchdog.signal.reason).toMatchObject({
      name: 'TimeoutError',
      message: 'no data for 100 ms',
    });
  });

  it('does not fire while it is touched within the limit, however long that goes on', async () => {
    const watchdog = new IdleWatchdog(100);
    for (let i = 0; i < 10; i += 1) {
      await vi.advanceTimersByTimeAsync(90);
      watchdog.touch();
    }
    expect(watchdog.fired).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(watchdog.fired).toBe(true);
  });

  it('never fires once stopped, and a touch after firing changes nothing', async () => {
    const stopped = new IdleWatchdog(20);
    stopped.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stopped.fired).toBe(false);

    const fired = new IdleWatchdog(20);
    await vi.advanceTimersByTimeAsync(20);
    const reason = fired.signal.reason;
    fired.touch();
    expect(fired.fired).toBe(true);
    expect(fired.signal.reason).toBe(reason);
  });
});

describe('withActivity', () => {
  it('reports the headers and every body chunk, passing status, headers and bytes through', async () => {
    let seen = 0;
    const held = heldBody();
    const fetchImpl = (async () =>
      new Response(held.body, { status: 201, headers: { 'x-a': '1' } })) as typeof fetch;
    const response = await withActivity(fetchImpl, () => {
      seen += 1;
    })('http://example.invalid');
    expect(seen).toBe(1);
    expect(response.status).toBe(201);
    expect(response.headers.get('x-a')).toBe('1');
    held.send(': keep-alive\n\n');
    held.send('data: [DONE]\n\n');
    held.end();
    expect(await response.text()).toBe(': keep-alive\n\ndata: [DONE]\n\n');
    expect(seen).toBe(3);
  });

  it('passes a response without a body through unchanged', async () => {
    const empty = new Response(null, { status: 204 });
    expect(withBodyActivity(empty, () => undefined)).toBe(empty);
  });
});

describe('a watchdog fed by the bytes of a body', () => {
  it('keeps a stream alive on keep-alive bytes alone, and fires once they stop', async () => {
    const watchdog = new IdleWatchdog(1_000);
    const held = heldBody();
    const response = withBodyActivity(new Response(held.body), () => watchdog.touch());
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    // Three seconds of keep-alive comments, never a second apart and never any data.
    for (let i = 0; i < 5; i += 1) {
      held.send(': still thinking\n\n');
      await reader.read();
      await vi.advanceTimersByTimeAsync(600);
    }
    expect(watchdog.fired).toBe(false);
    await vi.advanceTimersByTimeAsync(400);
    expect(watchdog.fired).toBe(true);
  });
});
