import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchAttempt } from './attempt-watch.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A response whose body the test feeds one chunk at a time. */
function fedResponse() {
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      feed = controller;
    },
  });
  return { response: new Response(body), send: () => feed.enqueue(new Uint8Array([1])) };
}

describe('watchAttempt', () => {
  it('never fires before the response headers arrive: the client timeout governs that wait', async () => {
    vi.useFakeTimers();
    const watch = watchAttempt(1_000);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(watch.signal.aborted).toBe(false);
    expect(watch.stalled).toBe(false);
    watch.stop();
  });

  it('abandons the attempt after the idle limit without a byte once headers arrived, not before', async () => {
    vi.useFakeTimers();
    const watch = watchAttempt(1_000);
    const { response, send } = fedResponse();
    const reader = watch.track(response).body?.getReader();
    await vi.advanceTimersByTimeAsync(900);
    send();
    await reader?.read();
    await vi.advanceTimersByTimeAsync(999);
    expect(watch.stalled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(watch.stalled).toBe(true);
    expect(watch.signal.reason).toMatchObject({ name: 'TimeoutError' });
    watch.stop();
  });

  it('passes the caller abort on without calling it a stall', () => {
    const controller = new AbortController();
    const watch = watchAttempt(1_000, controller.signal);
    controller.abort('user stop');
    expect(watch.signal.reason).toBe('user stop');
    expect(watch.stalled).toBe(false);
    watch.stop();
  });

  it('starts aborted when the caller signal already is', () => {
    const watch = watchAttempt(1_000, AbortSignal.abort('early'));
    expect(watch.signal.reason).toBe('early');
  });

  it('stop disarms the watchdog and detaches from the caller signal', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const watch = watchAttempt(1_000, controller.signal);
    watch.track(new Response('x'));
    watch.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(watch.stalled).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});
